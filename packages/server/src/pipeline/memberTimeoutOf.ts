import type { PipelineEnv } from './PipelineEnv';
import type { MemberRef } from './ServedMember';

/** A member's timeout: its own, else the app's for its kind; undefined for none. */
export function memberTimeoutOf({ member, kind }: Pick<MemberRef, 'member' | 'kind'>, env: Pick<PipelineEnv, 'toolTimeoutMs' | 'timeoutMs'>): number | undefined {
  return member.timeoutMs ?? (kind === 'tool' ? env.toolTimeoutMs : env.timeoutMs);
}
