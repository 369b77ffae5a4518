import { type Guard, type MemberAccess } from '@toolwright/core';
import { checkGuards } from '@toolwright/core/internal';
import type { PipelineEnv } from './PipelineEnv';

/** Whether the guards let `access` through; a guard that throws refuses, and the error goes to the server log. */
export async function passesGuards(guards: readonly Guard[], access: MemberAccess, env: PipelineEnv): Promise<boolean> {
  try {
    return await checkGuards(guards, access, env.container);
  } catch (error) {
    env.logger.error(`a guard of ${access.kind} '${access.name}' threw; the caller is refused`, error);
    return false;
  }
}
