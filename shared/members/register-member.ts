import { randomUUID } from 'node:crypto';
import { auditedResourceChange, type ChangedBy } from '../audit/audited-resource-change.js';
import { recordRegistrationConsents, type RegistrationConsents } from '../consents/member-consents.js';
import type { Principal } from '../platform/auth/principal.js';
import type { EntityManager } from '../platform/db/orm.js';
import { BadRequestError } from '../platform/errors/app-errors.js';
import {
  prepareReferredRegistration,
  type ReferralDependencies,
  type ReferredRegistrationInput,
} from '../referrals/referred-registration.js';
import type { ReferralDetails } from '../referrals/referral-member-details.js';
import { memberAuditAfter, NO_PERSONAL_DATA } from '../users/member-audit.js';
import {
  checkClaimsFree,
  checkLinkedVenues,
  checkProfile,
  lockMemberClaims,
  type MemberRules,
} from '../users/member-checks.js';
import { accountNumberSequence } from '../tenants/account-numbers.js';
import type { TenantConfiguration } from '../tenants/tenant.entity.js';
import { memberFingerprint } from '../users/member-fingerprint.js';
import { User, type Profile } from '../users/user.entity.js';
import { MEMBER, type MemberChangeDependencies } from '../users/user-service.js';

export interface Registration extends RegistrationConsents, ReferredRegistrationInput {
  authIdentifier?: string;
  externalIdentifier?: string;
  isRestricted: boolean;
  profile: Profile;
  linkedVenues?: { id: string }[];
}

/**
 * A member just registered, with what was stored beside it: whether it gave consents, and its
 * referral as the member view shows it (none when not referred).
 */
export interface RegisteredMember {
  user: User;
  consented: boolean;
  referral: ReferralDetails | undefined;
}

/** A member's changes, and the events a referred registration reports. */
export interface MemberRegistrationDependencies extends MemberChangeDependencies, ReferralDependencies {}

/**
 * Registers a member (docs/users.md#registration): a user token registers its own `sub`; an admin
 * may register anyone and an absent authIdentifier is generated. The account number is drawn first,
 * from the tenant's sequence (takeAccountNumber); then what the member alone may hold (its
 * authIdentifier, its contacts) is locked by name, so a registration claiming the same one waits
 * and sees this member, while the tenant's other registrations go on side by side. The member's
 * consents (docs/consents.md#registration) and, with an invite code, its referral are recorded in
 * the same transaction; the referral's events are reported after the commit
 * (docs/referrals.md#referred-registrations).
 */
export async function registerUser(
  deps: MemberRegistrationDependencies,
  em: EntityManager,
  by: ChangedBy,
  principal: Principal,
  input: Registration,
  id: string = randomUUID(),
): Promise<RegisteredMember> {
  const authIdentifier = chooseAuthIdentifier(principal, input.authIdentifier);
  const referral = await prepareReferredRegistration(deps, by.tenantId, input);
  const { accountNumber, tenant } = await takeAccountNumber(em, by.tenantId);
  const registered = await auditedResourceChange(deps, em, by, MEMBER, async (tx) => {
    checkProfile(tenant, deps.payloadSchemas, input.profile);
    const claims = { authIdentifier, profile: input.profile };
    await lockMemberClaims(tx, tenant, claims);
    await checkClaimsFree(tx, tenant, claims);
    await checkLinkedVenues(tx, by.tenantId, input.linkedVenues ?? []);
    const user = tx.create(User, {
      id,
      tenant: by.tenantId,
      accountNumber,
      authIdentifier,
      externalIdentifier: input.externalIdentifier ?? null,
      isRestricted: input.isRestricted,
      profile: input.profile,
      flags: input.profile.gender ? { genderProvided: input.profile.gender !== 'UNKNOWN' } : null,
      linkedVenues: input.linkedVenues ?? [],
      fingerprint: memberFingerprint(deps.fingerprintKey, by.tenantId, id),
      erasedAt: null,
    });
    await tx.flush();
    await recordRegistrationConsents(tx, user, input);
    await referral.record(tx, user);
    return { result: user, resourceId: id, before: null, after: memberAuditAfter(user, NO_PERSONAL_DATA) };
  });
  await referral.report();
  return {
    user: registered,
    consented: Boolean(input.consentsDefinition?.length),
    referral: referral.details(),
  };
}

function chooseAuthIdentifier(principal: Principal, requested: string | undefined): string {
  if (principal.kind === 'user') {
    if (requested !== undefined && requested !== principal.authIdentifier) {
      throw new BadRequestError(
        "A user token registers its own subject: authIdentifier must equal the token's sub, or be left out",
      );
    }
    return principal.authIdentifier;
  }
  return requested ?? randomUUID();
}

/**
 * The tenant's next account number, drawn from its sequence (tenants/account-numbers.ts) by a
 * statement that locks nothing, with the tenant's settings the checks read. Numbers increase; a
 * registration refused after drawing one leaves it unused (docs/users.md#registration).
 */
async function takeAccountNumber(
  em: EntityManager,
  tenantId: string,
): Promise<{ accountNumber: number; tenant: MemberRules }> {
  const [taken] = await em.execute<{ account_number: string; configuration: TenantConfiguration }[]>(
    'select nextval(?::regclass) as account_number, configuration from tenant where id = ?',
    [accountNumberSequence(tenantId), tenantId],
  );
  if (!taken) throw new Error(`No tenant ${tenantId} to register a member in`);
  return { accountNumber: Number(taken.account_number), tenant: { id: tenantId, configuration: taken.configuration } };
}
