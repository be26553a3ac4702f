import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { AuditDependencies } from '../audit/audit-log.js';
import { auditedRecords } from '../audit/audited-records.js';
import { auditedResourceChange, type ChangedBy } from '../audit/audited-resource-change.js';
import type { EntityManager } from '../platform/db/orm.js';
import type { TenantCache } from '../platform/cache/tenant-cache.js';
import { copyWritableFields } from '../platform/db/copy-writable-fields.js';
import { BadRequestError, NotFoundError } from '../platform/errors/app-errors.js';
import { EventType } from '../event-types/event-type.entity.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import type { RuleDefinition } from './rule-definition.js';
import { MAX_RULES_PER_SET, RuleSet, type RuleSetScope, type StoredRule } from './rule-set.entity.js';
import { isUuid } from '../platform/db/tenant-record.js';
import { checkedRule, storedRule, storedRules } from './stored-rules.js';

export interface RuleSetInput {
  name?: string | null;
  isActive: boolean;
  scope?: RuleSetScope | null;
  ruleDefinitions?: RuleDefinition[];
}

export type RuleSetChanges = Partial<RuleSetInput>;

export function ruleSetView(set: RuleSet) {
  return {
    id: set.id,
    name: set.name ?? null,
    isActive: set.isActive,
    scope: set.scope ?? null,
    rules: set.rules,
    createdAt: set.createdAt.toISOString(),
    updatedAt: set.updatedAt.toISOString(),
  };
}

/**
 * The tenant object returned with a new rule set, as clients of the interface expect it, with one
 * difference (docs/receipts.md#rule-sets): the API key's prefix in `key`, and in `eventSecrets`
 * the names of the event types that have secrets (each `null`), never a credential.
 */
export async function ruleSetTenantView(em: EntityManager, tenant: Tenant) {
  const privateTypes = await em.find(
    EventType,
    { tenant: tenant.id, secretHash: { $ne: null } },
    { fields: ['name'], orderBy: { name: 'asc' } },
  );
  const { authentication } = tenant;
  return {
    id: tenant.id,
    name: tenant.name,
    slug: tenant.slug,
    authentication: authentication
      ? {
          issuer: authentication.issuer,
          algorithm: authentication.algorithm,
          ...(authentication.algorithm === 'HS256' ? {} : { jwksUrl: authentication.jwksUrl }),
        }
      : null,
    key: tenant.apiKeyPrefix,
    eventSecrets: Object.fromEntries(privateTypes.map((type) => [type.name, null])),
    configuration: tenant.configuration,
  };
}

/** Rule set and rule changes: the audit log, and the rule engine's cache of sets a change makes stale. */
export interface RuleSetChangeDependencies extends AuditDependencies {
  ruleEngine: TenantCache;
}

const ruleSets = auditedRecords({
  resourceType: 'rule_set',
  entity: RuleSet,
  view: ruleSetView,
  cache: (deps: RuleSetChangeDependencies) => deps.ruleEngine,
});
/** A rule is audited on its own, its set named in its view: filter on `resourceId` or `after.ruleSetId`. */
const ruleResource = (deps: RuleSetChangeDependencies) => ({ resourceType: 'rule', cache: deps.ruleEngine });
const ruleAuditView = (set: RuleSet, rule: StoredRule) => ({ ruleSetId: set.id, ...rule });

export async function createRuleSet(
  deps: RuleSetChangeDependencies,
  em: EntityManager,
  by: ChangedBy,
  input: RuleSetInput,
  id: string = randomUUID(),
): Promise<RuleSet> {
  return ruleSets.create(deps, em, by, id, async (tx, owned) => {
    const rules = await storedRules(tx, by.tenantId, input.ruleDefinitions ?? [], 'ruleDefinitions');
    const set = tx.create(RuleSet, {
      ...owned,
      name: input.name ?? null,
      isActive: input.isActive,
      scope: input.scope ?? null,
      rules,
    });
    return set;
  });
}

export const findRuleSet = ruleSets.find;

/** PATCH: `ruleDefinitions`, when given, replace every rule of the set. */
export async function updateRuleSet(
  deps: RuleSetChangeDependencies,
  em: EntityManager,
  by: ChangedBy,
  id: string,
  changes: RuleSetChanges,
): Promise<RuleSet> {
  return auditedResourceChange(deps, em, by, ruleSets.resource(deps), async (tx) => {
    const set = await lockSet(tx, by.tenantId, id);
    const before = ruleSetView(set);
    copyWritableFields(set, changes, ['name', 'isActive', 'scope']);
    if (changes.ruleDefinitions)
      set.rules = await storedRules(tx, by.tenantId, changes.ruleDefinitions, 'ruleDefinitions');
    await saveSet(tx, set);
    return { result: set, resourceId: set.id, before, after: ruleSetView(set) };
  });
}

export const deleteRuleSet = ruleSets.remove;

export function findRule(set: RuleSet, ruleId: string): StoredRule {
  const rule = set.rules.find((candidate) => candidate.id === ruleId);
  if (!rule) throw new NotFoundError(`No rule "${ruleId}" in rule set ${set.id}`);
  return rule;
}

export async function addRule(
  deps: RuleSetChangeDependencies,
  em: EntityManager,
  by: ChangedBy,
  setId: string,
  definition: RuleDefinition,
  ruleId: string = randomUUID(),
): Promise<StoredRule> {
  return auditedResourceChange(deps, em, by, ruleResource(deps), async (tx) => {
    const set = await lockSet(tx, by.tenantId, setId);
    // A retry that took over an Idempotency-Key while the first request still ran finds its rule
    // under the reserved id once the first commits: the rule is there once, not twice, and audited once.
    const found = set.rules.find((rule) => rule.id === ruleId);
    if (found) return { result: found, resourceId: ruleId, before: null, after: null, unchanged: true };
    if (set.rules.length >= MAX_RULES_PER_SET)
      throw new BadRequestError(`A rule set holds at most ${MAX_RULES_PER_SET} rules`);
    const added = storedRule(definition, await checkedRule(tx, by.tenantId, definition, 'rule'), ruleId);
    set.rules = [...set.rules, added];
    await saveSet(tx, set);
    return { result: added, resourceId: ruleId, before: null, after: ruleAuditView(set, added) };
  });
}

/** A rule's changed fields merged into its definition, then checked whole, as a new rule would be. */
export async function updateRule(
  deps: RuleSetChangeDependencies,
  em: EntityManager,
  by: ChangedBy,
  setId: string,
  ruleId: string,
  changes: Partial<RuleDefinition>,
): Promise<StoredRule> {
  return auditedResourceChange(deps, em, by, ruleResource(deps), async (tx) => {
    const set = await lockSet(tx, by.tenantId, setId);
    const current = findRule(set, ruleId);
    const merged: RuleDefinition = { ...definitionOf(current), ...changes };
    // Switching type drops what belonged to the old one, unless the change gives it again.
    if (changes.type && changes.type !== current.type) {
      if (!changes.ruleProperties) delete merged.ruleProperties;
      if (!changes.configuration) delete merged.configuration;
    }
    const checked = await checkedRule(tx, by.tenantId, merged, `rule ${ruleId}`);
    const updated = storedRule(merged, checked, current.id, current.createdAt);
    set.rules = set.rules.map((rule) => (rule.id === ruleId ? updated : rule));
    await saveSet(tx, set);
    return {
      result: updated,
      resourceId: ruleId,
      before: ruleAuditView(set, current),
      after: ruleAuditView(set, updated),
    };
  });
}

export async function deleteRule(
  deps: RuleSetChangeDependencies,
  em: EntityManager,
  by: ChangedBy,
  setId: string,
  ruleId: string,
): Promise<void> {
  await auditedResourceChange(deps, em, by, ruleResource(deps), async (tx) => {
    const set = await lockSet(tx, by.tenantId, setId);
    const removed = findRule(set, ruleId);
    set.rules = set.rules.filter((rule) => rule.id !== ruleId);
    await saveSet(tx, set);
    return { result: undefined, resourceId: ruleId, before: ruleAuditView(set, removed), after: null };
  });
}

/** What an admin wrote, recovered from a stored rule: a BASKET rule's generated properties are not part of it. */
function definitionOf(rule: StoredRule): RuleDefinition {
  const { type, name, priority, resultParams } = rule;
  return type === 'BASKET'
    ? { type, name, priority, resultParams, configuration: rule.configuration }
    : { type, name, priority, resultParams, ruleProperties: rule.ruleProperties };
}

/**
 * Two changes to one set's rules never interleave: each reads and writes the set under its row
 * lock, taken in the change's transaction. The change reads (products) through that transaction,
 * never a second pooled connection.
 */
async function lockSet(tx: EntityManager, tenantId: string, id: string): Promise<RuleSet> {
  const set = isUuid(id)
    ? await tx.findOne(RuleSet, { tenant: tenantId, id }, { lockMode: LockMode.PESSIMISTIC_WRITE })
    : null;
  if (!set) throw new NotFoundError(`No rule set "${id}"`);
  return set;
}

/** A change inside the JSON column alone would not move updatedAt, which decides between sets. */
async function saveSet(tx: EntityManager, set: RuleSet): Promise<void> {
  set.updatedAt = new Date();
  await tx.flush();
}
