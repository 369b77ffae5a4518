import type { MemberAccess } from '@toolwright/core';
import type { Connection } from './Connection';
import type { ServerContext } from '../sdk/sdk';
import { requestEnvelopeOf } from './requestEnvelope';
import { callerOf } from '../auth/canAccess';
import type { MemberRef } from './ServedMember';

/** Who asks for which member in this request: what guards decide on and middleware starts from. */
export function memberAccessOf(ref: MemberRef, sdk: ServerContext, connection: Connection): MemberAccess {
  return {
    kind: ref.kind,
    name: ref.name,
    target: ref.member.target,
    methodName: ref.member.methodName,
    annotations: ref.annotations,
    authInfo: callerOf(sdk),
    sessionId: sdk.sessionId,
    era: connection.era,
    envelope: requestEnvelopeOf(sdk, connection),
  };
}
