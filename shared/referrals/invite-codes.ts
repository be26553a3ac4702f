import { createHash, randomInt } from 'node:crypto';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { inPrintedForm } from '../platform/text/printed-code.js';
import type { ReferralCodeType } from './referral-campaign.entity.js';

/** Letters and digits no one misreads for another when copying a code by hand: no 0/O, 1/I/L. */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const CODE_LENGTH = 8;
/** Three of BIP-39's 2,048 English words: about 8.6 billion codes, each word unlike any other. */
const WORDS_PER_CODE = 3;

/** Who a code is drawn for, and how many draws of this member's code collided already. */
export interface CodeDraw {
  tenantId: string;
  memberId: string;
  attempt: number;
}

/**
 * A member's invite code of `type` (docs/referrals.md#invite-codes). CODE and LINK are random
 * (crypto); the STATIC types are derived from the tenant's and the member's ids, so the member has
 * the same code in every campaign of that type and nothing about the person is in it. A collision
 * within a campaign draws again with the next `attempt`.
 */
export function drawInviteCode(type: ReferralCodeType, draw: CodeDraw): string {
  switch (type) {
    case 'CODE':
    case 'LINK':
      return Array.from({ length: CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    case 'STATIC_USER_CODE':
      return Array.from(memberDigest(draw).subarray(0, CODE_LENGTH), (byte) => ALPHABET[byte % ALPHABET.length]).join(
        '',
      );
    case 'STATIC_USER_WORD_CODE': {
      const digest = memberDigest(draw);
      return Array.from({ length: WORDS_PER_CODE }, (_, index) => wordlist[digest.readUInt16BE(index * 2) % 2048]).join(
        '-',
      );
    }
  }
}

/**
 * A code as a person typed it, in the form codes of `type` are issued in: spaces around it
 * dropped, the alphabet's codes upper case and word codes lower case, so `y86pahyr ` is `Y86PAHYR`.
 */
export function issuedFormOf(type: ReferralCodeType, typed: string): string {
  return inPrintedForm(typed, { letterCase: type === 'STATIC_USER_WORD_CODE' ? 'lower' : 'upper' });
}

function memberDigest({ tenantId, memberId, attempt }: CodeDraw): Buffer {
  return createHash('sha256').update(`${tenantId}:${memberId}:${attempt}`).digest();
}

/**
 * A LINK campaign's invite link: its desktop address with `inviteCode=<code>` added after the
 * address's own query, which is kept as written (searchParams would re-encode it: `a=%20b&flag`
 * becoming `a=+b&flag=`), as is the fragment. An `inviteCode` already in the address stays too.
 */
export function inviteLinkOf(desktopUrl: string, inviteCode: string): string {
  const url = new URL(desktopUrl);
  const query = url.search.slice(1);
  const separator = query === '' || query.endsWith('&') ? '' : '&';
  url.search = `${query}${separator}inviteCode=${encodeURIComponent(inviteCode)}`;
  return url.toString();
}
