import { Param, Tool } from '@toolwright/core';

// #region basic
export class GreetingTools {
  @Tool({ description: 'Greet someone by name. Use when the user asks for a greeting.' })
  greet(@Param('name', { description: 'Who to greet' }) name: string) {
    return `Hello, ${name}!`;
  }
}
// #endregion basic
