import { Param, Tool } from '@toolwright/core';

// #region explicit
export class PortableTools {
  // Every type stated: this tool builds even where no decorator metadata is emitted.
  @Tool()
  echo(@Param('text', { type: () => String }) text: string, @Param('count', { type: () => Number, integer: true }) count: number) {
    return text.repeat(count);
  }
}
// #endregion explicit
