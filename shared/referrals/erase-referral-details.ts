import type { EntityManager } from '../platform/db/orm.js';
import { Referral } from './referral.entity.js';

/**
 * An erasure (docs/users.md#erasure) removes what the referral of an erased referred member says of
 * the person's device: its address and agent. `source` and the sourceUserId's keyed hash stay: the
 * rule that a person signs up once per code rests on them, and the hash says nothing of the person.
 */
export async function eraseReferralDetailsOf(tx: EntityManager, tenantId: string, userId: string): Promise<void> {
  await tx.nativeUpdate(Referral, { tenant: tenantId, referred: userId }, { ipAddress: null, userAgent: null });
}
