import { UsageError } from '../cli/UsageError';

/**
 * A running server's URL, checked: http:// or https:// only, and no user name or password
 * (they are not sent, and messages and config files would show them). `credentialsHint` says
 * how the command takes credentials instead. Throws a `UsageError` that never quotes a password.
 */
export function serverUrl(raw: string, credentialsHint: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`'${withoutUserinfo(raw)}' is not a valid URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`A URL that starts ${url.protocol}${raw.startsWith(`${url.protocol}//`) ? '//' : ''} is not a server: pass the http:// or https:// URL of a running server.`);
  }
  if (url.username !== '' || url.password !== '') {
    url.username = url.password = '';
    throw new UsageError(`The URL carries a user name or password, which are not sent and would show in messages: pass ${url.href} and the credentials as ${credentialsHint}.`);
  }
  return url;
}

/** `raw` without the `user:password@` of a URL, for a message about a URL that does not parse. */
function withoutUserinfo(raw: string): string {
  return raw.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1');
}
