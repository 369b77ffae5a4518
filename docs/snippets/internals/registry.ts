import { buildRegistry, Param, Tool } from '@toolwright/core';
import { compiledRegistry } from '@toolwright/core/internal';

export class MathTools {
  @Tool({ description: 'Add two numbers.' })
  add(@Param('a') a: number, @Param('b') b: number) {
    return a + b;
  }
}

// #region registry
export async function inspect() {
  const registry = buildRegistry({ tools: [MathTools] }); // pure: reads decorators, derives schemas, compiles calls
  const list = registry.toolList; // the frozen tools/list result, served as is
  const result = await compiledRegistry(registry).tool('add')!.call({ a: 2, b: 3 }, undefined); // what tools/call runs
  return { list, result }; // result: { content: [{ type: 'text', text: '5' }] }
}
// #endregion registry
