import { describe, expect, it } from 'vitest';
import { generateSecret, hashSecret, SecretCheck } from '../../shared/platform/secrets/secret-token.js';

// docs/api-conventions.md#authentication: keys are "stored only as a hash, compared in constant time".
describe("a stored secret's check, remembering what it passed", () => {
  it('passes the secret, refuses others (of any length) before and after, and passes it again', () => {
    const secret = generateSecret('tly_');
    const check = new SecretCheck(hashSecret(secret));
    const sameLength = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    expect(check.matches(sameLength)).toBe(false);
    expect(check.matches(secret)).toBe(true);
    expect(check.matches(sameLength)).toBe(false);
    expect(check.matches(`${secret}x`)).toBe(false);
    expect(check.matches('')).toBe(false);
    expect(check.matches(secret)).toBe(true);
  });
});
