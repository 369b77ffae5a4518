import { Param, Tool } from '@toolwright/core';

export class GreeterTools {
  @Tool({ description: 'Greet someone by name. Use when the user asks for a greeting.' })
  greet(@Param('name') name: string) {
    return `Hello, ${name}!`;
  }
}
