import { describe, expect, it } from 'vitest';
import { drawInviteCode, inviteLinkOf } from '../../shared/referrals/invite-codes.js';

const draw = { tenantId: 't-1', memberId: 'm-1', attempt: 0 };

// docs/referrals.md#invite-codes: the kinds of code, without the database.
describe('invite codes', () => {
  it('derives the static codes from the tenant and member alone, and draws another on the next attempt', () => {
    for (const type of ['STATIC_USER_CODE', 'STATIC_USER_WORD_CODE'] as const) {
      expect(drawInviteCode(type, draw)).toBe(drawInviteCode(type, { ...draw }));
      expect(drawInviteCode(type, { ...draw, attempt: 1 })).not.toBe(drawInviteCode(type, draw));
      expect(drawInviteCode(type, { ...draw, tenantId: 't-2' })).not.toBe(drawInviteCode(type, draw));
    }
  });

  it('"LINK: ... the address\'s own query and fragment kept"', () => {
    expect(inviteLinkOf('https://coffee.example/join?lang=en#top', 'K7MQ2XWD')).toBe(
      'https://coffee.example/join?lang=en&inviteCode=K7MQ2XWD#top',
    );
    expect(inviteLinkOf('https://coffee.example/join?a=%20b&flag#top', 'K7MQ2XWD')).toBe(
      'https://coffee.example/join?a=%20b&flag&inviteCode=K7MQ2XWD#top',
    );
    expect(inviteLinkOf('https://coffee.example/join', 'maple-orbit-canyon')).toBe(
      'https://coffee.example/join?inviteCode=maple-orbit-canyon',
    );
  });

  it('"an address that already has an `inviteCode` parameter keeps it, the member\'s code added after it"', () => {
    expect(inviteLinkOf('https://coffee.example/join?inviteCode=SPRING&', 'K7MQ2XWD')).toBe(
      'https://coffee.example/join?inviteCode=SPRING&inviteCode=K7MQ2XWD',
    );
  });
});
