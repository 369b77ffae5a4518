import { Param, Tool } from '@toolwright/core';

// #region probe
export class ProbeTools {
  @Tool()
  echo(@Param('text') text: string, @Param('count') count: number) {
    return text.repeat(count);
  }
}
// Compiled with emitDecoratorMetadata, the output carries the parameter types:
//   __metadata("design:paramtypes", [String, Number])
// Without it (esbuild, tsx, vitest, Bun) that line is missing, and Toolwright cannot
// tell `text` is a string: the build stops and says how to fix it.
// #endregion probe
