/** The words of a key: camelCase and PascalCase humps (an acronym is one word), runs of digits; anything else separates them. */
const WORDS = /\p{Lu}+(?!\p{Ll})|\p{Lu}?\p{Ll}+|\p{N}+/gu;

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
  'apikey',
  'accesskey',
  'secretkey',
  'privatekey',
  'signingkey',
  'encryptionkey',
  'sessionid',
  'requeststate',
]);

/**
 * Words that, first or last in a key, say it describes a secret rather than holds one
 * (`tokenCount`, `maxTokens`, `passwordPolicy`, `authorizationUrl`).
 */
const DESCRIBING_WORDS: ReadonlySet<string> = new Set([
  'count',
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

/**
 * Whether the value under an argument's `key` may be a secret, so telemetry never records it. The
 * key is split into lower-case words (camelCase, snake_case, kebab-case, spaces, digits); it is
 * secret when one word, or two neighbouring words written together, is in `SECRET_WORDS`, unless
 * its first or last word is in `DESCRIBING_WORDS`.
 */
export function isSecretKey(key: string): boolean {
  const words = (key.match(WORDS) ?? []).map((word) => word.toLowerCase());
  if (words.length === 0 || DESCRIBING_WORDS.has(words[0]) || DESCRIBING_WORDS.has(words[words.length - 1])) return false;
  return words.some((word, i) => SECRET_WORDS.has(word) || (i > 0 && SECRET_WORDS.has(words[i - 1] + word)));
}
