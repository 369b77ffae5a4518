/**
 * The outcome of reading a resource, getting a prompt or completing an argument. These
 * are protocol operations (no `isError` results), so failures carry the kind of JSON-RPC
 * error the server should send: -32002 not found (the SDK encodes it as -32602 in both eras), -32602 invalid params, -32603 internal.
 */
export type MemberOutcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: MemberErrorKind; readonly message: string };

export type MemberErrorKind = 'not_found' | 'invalid_params' | 'internal';
