/** The words of a key: camelCase and PascalCase humps (an acronym is one word), runs of digits; anything else separates them. */
const WORDS = /\p{Lu}+(?!\p{Ll})|\p{Lu}?\p{Ll}+|\p{N}+/gu;

/** Characters that separate words and are left out of a key's compact form. */
const SEPARATORS = /[^\p{L}\p{N}]+/gu;

/** How many characters at each end of a long key are read: the work per key stays bounded, whatever the key's length. */
const EDGE_CHARS = 64;

/**
 * Words that name a secret. A compound is listed as one word (`apikey`), and matches a key that
 * writes it as one word (`apikey`) or as two (`apiKey`, `api_key`).
 */
const SECRET_WORDS: ReadonlySet<string> = new Set([
  'secret',
  'secrets',
  'password',
  'passwords',
  'passwd',
  'pwd',
  'passphrase',
  'passcode',
  'credential',
  'credentials',
  'token',
  'tokens',
  'cookie',
  'cookies',
  'authorization',
  'bearer',
  'jwt',
  'otp',
  'totp',
  'signature',
  'pin',
  'cvv',
  'ssn',
  'mnemonic',
  'apikey',
  'accesskey',
  'secretkey',
  'privatekey',
  'privkey',
  'sshkey',
  'signingkey',
  'encryptionkey',
  'sessionid',
  'requeststate',
  'seedphrase',
  'cardnumber',
  'creditcard',
]);

/** The key written as one lower-case word (`pgpassword`, `AUTHTOKEN`) ends with a secret word. */
const SECRET_END = /(?:tokens?|passwords?|passwd|pwd|secrets?|apikey|credentials?|authorization|cookies?|sessionid|requeststate|passphrase|passcode|jwt|signature|accesskey|bearer)$/;
/** The key written as one lower-case word holds a word that is hardly ever part of a harmless one (`secretary` aside). */
const SECRET_PART = /secret(?!ar[iy])|password|passwd|passphrase|apikey|privatekey|privkey|credential|seedphrase|creditcard|cardnumber/;

/**
 * Words that, last in a key, say it describes a secret rather than holds one
 * (`tokenCount`, `tokensUsed`, `passwordPolicy`, `authorizationUrl`, `cookieConsent`).
 */
const DESCRIBING_WORDS: ReadonlySet<string> = new Set([
  'count',
  'used',
  'remaining',
  'max',
  'min',
  'total',
  'num',
  'limit',
  'length',
  'size',
  'type',
  'kind',
  'policy',
  'url',
  'uri',
  'consent',
  'expiry',
  'expires',
  'expiration',
  'ttl',
  'usage',
]);

/** Words that, first in a key whose last word is `tokens`, say it counts a model's tokens (`maxTokens`, `inputTokens`). */
const TOKEN_COUNTING_WORDS: ReadonlySet<string> = new Set(['max', 'min', 'total', 'num', 'input', 'output', 'prompt', 'completion', 'cached', 'reasoning']);

/**
 * Whether the value under an argument's `key` may be a secret, so telemetry never records it. A
 * key longer than 128 characters is judged by its first and last 64. The key is split into
 * lower-case words (camelCase, snake_case, kebab-case, spaces, digits). It is recorded when its
 * last word is in `DESCRIBING_WORDS`, or its first word is in `TOKEN_COUNTING_WORDS` and its last
 * is `tokens`. Otherwise it is secret when one word, or two neighbouring words written together,
 * is in `SECRET_WORDS`, or when the key lower-cased without separators matches `SECRET_END` or
 * `SECRET_PART`.
 */
export function isSecretKey(key: string): boolean {
  const read = key.length > 2 * EDGE_CHARS ? `${key.slice(0, EDGE_CHARS)} ${key.slice(-EDGE_CHARS)}` : key;
  const words = (read.match(WORDS) ?? []).map((word) => word.toLowerCase());
  if (words.length === 0) return false;
  const last = words[words.length - 1];
  if (DESCRIBING_WORDS.has(last) || (last === 'tokens' && TOKEN_COUNTING_WORDS.has(words[0]))) return false;
  if (words.some((word, i) => SECRET_WORDS.has(word) || (i > 0 && SECRET_WORDS.has(words[i - 1] + word)))) return true;
  const compact = read.replace(SEPARATORS, '').toLowerCase();
  return SECRET_END.test(compact) || SECRET_PART.test(compact);
}
