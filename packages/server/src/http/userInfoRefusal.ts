import { rpcRefusal, type HttpRefusal } from './HttpRefusal';

const USER_INFO = rpcRefusal(
  400,
  -32000,
  'Bad Request: the Host header (over HTTP/2, :authority) carries user information (`name@`), which a request target may not (RFC 9110 §4.2.4, RFC 9113 §8.3.1). Send the host name and port alone.',
);

/**
 * The 400 for a Host value with user information (`localhost:1@attacker.example`): a malformed
 * request. The Host rule reads the name before the first colon (`localhost`) and would let it
 * pass, and a URL built from it carries credentials, which a web `Request` refuses. Undefined
 * for any other value (an absent Host included: the Host rule decides that one).
 */
export function userInfoRefusal(host: string | undefined): HttpRefusal | undefined {
  return host !== undefined && host.includes('@') ? USER_INFO : undefined;
}
