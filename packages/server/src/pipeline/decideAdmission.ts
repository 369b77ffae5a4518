import type { ServerContext } from '../sdk/sdk';
import type { Connection } from './Connection';
import { admitMember, type AdmittedMember, type MemberAdmission } from './admitMember';
import type { PipelineEnv } from './PipelineEnv';

/**
 * What a member's access rules and guards made of one request (`decideAdmission`): the caller
 * is admitted, refused (with the error for a name the app does not serve), or the decision
 * itself failed for another reason (already logged; the caller gets the generic internal error).
 */
export type AdmissionDecision = { readonly admission: MemberAdmission } | { readonly refusal: Error } | { readonly failed: true };

/**
 * Runs `admitMember` and tells a refusal apart from any other failure of the guard step (a
 * logger that throws while it records a guard's error, say). Such a failure goes to the
 * server log, never to the client: a log call that throws too is swallowed here.
 */
export async function decideAdmission(member: AdmittedMember, sdk: ServerContext, connection: Connection, env: PipelineEnv): Promise<AdmissionDecision> {
  let refusal: Error | undefined;
  const refusing: AdmittedMember = { kind: member.kind, member: member.member, name: member.name, annotations: member.annotations, unknown: () => (refusal = member.unknown()) };
  try {
    return { admission: await admitMember(refusing, sdk, connection, env) };
  } catch (error) {
    if (refusal !== undefined && error === refusal) return { refusal };
    try {
      env.logger.error(`the guards of ${member.kind} '${member.name}' failed to decide (not a refusal); the caller got an internal error`, error);
    } catch {
      // The log sink failed as well: the answer stays the generic one, and the server keeps serving.
    }
    return { failed: true };
  }
}
