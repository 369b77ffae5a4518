import type { MemberCall } from '@toolwright/core';

/** How messages name the member: "tool 'search'", "resource 'notes://7'", "prompt 'summarize'". */
export function subjectOf(call: Pick<MemberCall, 'kind' | 'name' | 'uri'>): string {
  return `${call.kind} '${call.kind === 'resource' ? (call.uri ?? call.name) : call.name}'`;
}
