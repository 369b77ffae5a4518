import type { Contract, ToolEntry } from '../../src/contract/Contract';

/** A contract of server `s` 1 with these tools and nothing else, unless `extra` says otherwise. */
export function contractOf(tools: ToolEntry[], extra: Partial<Contract> = {}): Contract {
  return {
    contractVersion: 1,
    server: { name: 's', version: '1' },
    tools,
    resources: [],
    resourceTemplates: [],
    prompts: [],
    ...extra,
  };
}
