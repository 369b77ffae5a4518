import type { AuthInfo } from '@toolwright/core';
import { roundCaller } from '../../roundtrip/roundCaller';

/** Who a task belongs to: the caller's client and subject; '' for an anonymous caller (then the unguessable id is the only key). */
export function ownerOf(ctx: { readonly authInfo: AuthInfo | undefined }): string {
  return roundCaller(ctx.authInfo) ?? '';
}
