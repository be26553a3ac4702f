import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashedSourceUser } from '../../shared/referrals/source-user-hash.js';
import { VoucherCodes } from '../../shared/rewards/voucher-codes.js';
import { derivedKey, type KeyPurpose } from '../../shared/platform/secrets/derived-key.js';
import { KeyedHash } from '../../shared/platform/secrets/keyed-hash.js';
import { Sealer } from '../../shared/platform/secrets/sealer.js';
import { memberFingerprint } from '../../shared/users/member-fingerprint.js';

const SECRET = 'tally-known-answer-secret';
const TENANT = '00000000-0000-4000-8000-000000000001';
const MEMBER = '00000000-0000-4000-8000-000000000002';

/**
 * Each purpose's key under SECRET. The first four are what the code before keys were derived in one
 * place (commit 586fd26: Sealer and VoucherCodes each called HKDF) derived; the last two were checked
 * against an RFC 5869 HKDF written apart from Node's. Every stored voucher code, sealed answer and
 * webhook secret, fingerprint and referral hash is kept under one of them: a key that changed would
 * leave them unfindable or unopenable, with nothing else failing.
 */
const KEYS: Record<KeyPurpose, string> = {
  'idempotency-response': 'fcb03d6c6b057c1865f03e24c11b10fd35c5501598df4d92b821c904f5f751d8',
  'webhook-secret': '83234196cddebbf1142023ab256effad97d464c123a6849b3c6fdd8f95b81ba6',
  'voucher-code': '7a23c0fca62784da0e00bb1fdbc0eb9a4ab8ebf50b592440412192aab430424d',
  'voucher-code-hash': '48e0d9e69ed790ea9cafdc31e9847ec41587c3150e663574dc5222062c7029aa',
  'member-fingerprint': '791f0b3e4a632cbcf570823647309f20c0bf5ab6e060d923458ad828bf84c4da',
  'referral-source-user': '306e86295b2132fb46b2b991d355b1021e1b5d9e7a4769052ab051343a933202',
};

/** Texts the code at 586fd26 sealed under SECRET, each for `${TENANT}:context`. */
const SEALED_BEFORE = {
  'idempotency-response': 'MxWO7bkYsTV+dJQcVfRRR4gNo5cY0+EqSyYUAZNJfV9lXXgYPgU6HHdbIGSEqX6aZj2FM9iJaGvbqvM=',
  'webhook-secret': 'HKUo67LfWUsO1C3gxl9AeHXJp0L0qcnb59jJdv1l36UBBvpdkTE5A7lGUAsIVm775M1J+AY=',
  'voucher-code': 'LvJohps/87UJaJ5yqJH+efY7XoUBcf9vLfYrZf/3j+puLBageRnRYLRgWkre6Qt+Yk55',
} as const;

const PURPOSES = Object.keys(KEYS) as KeyPurpose[];

// docs/operations.md#the-platform-secret: "Each use has its own key, derived from it (HKDF-SHA256, the use as its
// label) … Neither the secret nor a key is stored beside the data: a database dump opens nothing and recomputes no
// hash from a guess."
describe('the keys derived from the platform secret', () => {
  it.each(PURPOSES)('%s: the same key as ever', (purpose) => {
    expect(derivedKey(SECRET, purpose).toString('hex')).toBe(KEYS[purpose]);
  });

  it('differ by purpose and by secret', () => {
    const keys = PURPOSES.flatMap((purpose) => [SECRET, `${SECRET}!`].map((secret) => derivedKey(secret, purpose)));
    expect(new Set(keys.map((key) => key.toString('hex'))).size).toBe(PURPOSES.length * 2);
  });
});

describe('the keyed hashes', () => {
  it("are HMAC-SHA256 of the parts joined by newlines, under their purpose's key", () => {
    expect(new KeyedHash(SECRET, 'member-fingerprint').hex(TENANT, MEMBER)).toBe(
      '0837312c320b571d286acaecb70e0e5193020026d29a314a20835f62ce453246',
    );
    expect(memberFingerprint(new KeyedHash(SECRET, 'member-fingerprint'), TENANT, MEMBER)).toBe(
      '0837312c320b571d286acaecb70e0e51',
    );
    expect(hashedSourceUser(new KeyedHash(SECRET, 'referral-source-user'), TENANT, 'Ada@Example.com')).toBe(
      '9ed2bdbefcdcbc4b26a1c2365df88a03f1e10ebf1f7c26bc8eaab7182b074f62',
    );
  });

  it('are keyed: no plain hash of the same text, and another under another secret', () => {
    for (const purpose of PURPOSES) {
      const hash = new KeyedHash(SECRET, purpose).hex(TENANT, MEMBER);
      expect(hash).not.toBe(createHash('sha256').update(`${TENANT}\n${MEMBER}`).digest('hex'));
      expect(new KeyedHash(`${SECRET}!`, purpose).hex(TENANT, MEMBER)).not.toBe(hash);
    }
  });
});

// docs/rewards.md#codes: a till's code is found by its keyed hash; a code stored before must stay findable.
describe('what was kept under the keys before they were derived in one place (586fd26)', () => {
  it("finds a voucher code by the key it was stored under: a generated code's, and an uploaded code's exact one", () => {
    const codes = new VoucherCodes(SECRET);
    expect(codes.hash(TENANT, 'ABCD-EFGH-JKLM')).toBe(
      '688bb138f40eacf74570585cda881bc5a0e0ed9e392bddbcb9c0880f32669b92',
    );
    expect(codes.lookupKeys(TENANT, 'esp-7k2m-qx9a')[1]).toBe(
      '9be6028861297bab72a670d9ecfa8560f03c9a027c0f8d990b0d1fba27260cb8',
    );
  });

  it.each(Object.entries(SEALED_BEFORE))('opens what was sealed for %s', (purpose, sealed) => {
    const sealer = new Sealer(SECRET, purpose as keyof typeof SEALED_BEFORE);
    expect(sealer.open(sealed, `${TENANT}:context`)).toBe(`sealed for ${purpose}`);
  });
});
