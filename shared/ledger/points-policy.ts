import type { Knex } from 'knex';
import { DEFAULT_TIER_WINDOW_DAYS, type CapPeriod, type TenantSettings } from '../tenants/tenant-settings.js';

export interface PointsCap {
  max: number;
  period: CapPeriod;
}

export interface TierDefinition {
  id: string;
  name: string;
  threshold: number;
}

/**
 * A tenant's rules for points over time (docs/points.md), read from its configuration: when
 * earnings expire, the caps on earning and spending per calendar period, and the tiers. Absent
 * settings are absent here: no expiry, no cap, no tiers.
 */
export interface PointsPolicy {
  /** The IANA zone whose days the caps' periods and the tiers' window count. */
  timezone: string;
  expiryAfterDays?: number;
  earnCap?: PointsCap;
  spendCap?: PointsCap;
  tiers: TierDefinition[];
  tierWindowDays: number;
}

export function pointsPolicyOf(configuration: Record<string, unknown>): PointsPolicy {
  const settings = configuration as TenantSettings;
  return {
    timezone: settings.timezone ?? 'UTC',
    expiryAfterDays: settings.pointsExpiry?.afterDays,
    earnCap: settings.pointsCaps?.earn,
    spendCap: settings.pointsCaps?.spend,
    tiers: settings.tiers ?? [],
    tierWindowDays: settings.tierWindowDays ?? DEFAULT_TIER_WINDOW_DAYS,
  };
}

/**
 * The policies of these tenants, read in the caller's transaction: a write that moves points
 * applies the settings as they are when it commits, never a cached copy a moment old.
 */
export async function loadPointsPolicies(
  trx: Knex.Transaction,
  tenantIds: string[],
): Promise<Map<string, PointsPolicy>> {
  const unique = [...new Set(tenantIds)];
  if (unique.length === 0) return new Map();
  const rows = await trx.raw<{ rows: { id: string; configuration: Record<string, unknown> }[] }>(
    'select id, configuration from tenant where id = any(?::uuid[])',
    [unique],
  );
  return new Map(rows.rows.map((row) => [row.id, pointsPolicyOf(row.configuration)]));
}

export async function loadPointsPolicy(trx: Knex.Transaction, tenantId: string): Promise<PointsPolicy> {
  const policy = (await loadPointsPolicies(trx, [tenantId])).get(tenantId);
  if (!policy) throw new Error(`no tenant ${tenantId}`);
  return policy;
}
