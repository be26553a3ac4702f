import { generateSecret, hashSecret } from '../platform/secrets/secret-token.js';

export const API_KEY_PREFIX = 'tly_';
/** `tly_` and eight random characters: enough to find the row, too little to guess the key. */
const LOOKUP_LENGTH = API_KEY_PREFIX.length + 8;

export interface IssuedApiKey {
  key: string;
  prefix: string;
  hash: string;
}

export function issueApiKey(): IssuedApiKey {
  const key = generateSecret(API_KEY_PREFIX);
  return { key, prefix: key.slice(0, LOOKUP_LENGTH), hash: hashSecret(key) };
}

/** The indexed handle of a key; undefined when the string cannot be one of our keys. */
export function apiKeyLookupPrefix(key: string): string | undefined {
  if (!key.startsWith(API_KEY_PREFIX) || key.length < LOOKUP_LENGTH + 16 || key.length > 128) return undefined;
  return key.slice(0, LOOKUP_LENGTH);
}
