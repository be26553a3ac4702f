import { TtlCache } from '../platform/cache/ttl-cache.js';
import type { Orm } from '../platform/db/orm.js';
import { NotFoundError, RuleEngineError } from '../platform/errors/app-errors.js';
import type { ProductCatalogues } from '../products/product-catalogue.js';
import type { VenueDirectory } from '../venues/venue-directory.js';
import { venueMatchesOperator } from './venue-matches.js';
import { CATALOGUE_FACT, type ExecutableRule } from './rule-definition.js';
import { CompiledRules, type RuleEngineResult } from './rule-engine.js';
import { RuleSet } from './rule-set.entity.js';
import { selectRuleSet, type ScopedTransaction } from './rule-set-selection.js';
import { isUuid } from '../platform/db/tenant-record.js';

export interface RuleSetRun extends RuleEngineResult {
  ruleSetId: string;
}

export type Transaction = Record<string, unknown> & ScopedTransaction;

/**
 * The transactions rule engine (docs/receipts.md#rule-sets): picks the tenant's most appropriate
 * active rule set for a transaction (or the one asked for), maps its line items to products, and
 * runs the set with the catalogue and the tenant's venues. Active sets are cached per tenant for
 * `ttlMs`; a change made through this process is seen at once (`forget`).
 */
export class TransactionRuleEngine {
  private readonly activeSets: TtlCache<RuleSet[]>;
  /**
   * Each set's compiled rules, for as long as the set object (cached above) lives; rebuilt when
   * the tenant's venues were read afresh, as the venueMatches operator is bound to them.
   */
  private readonly compiled = new WeakMap<RuleSet, { venues: ReadonlyMap<string, unknown>; rules: CompiledRules }>();

  constructor(
    private readonly orm: Orm,
    private readonly catalogues: ProductCatalogues,
    private readonly venues: VenueDirectory,
    ttlMs: number,
  ) {
    this.activeSets = new TtlCache(ttlMs, 10_000);
  }

  /** `$.transaction` as rules read it: line items carry the `productId` the catalogue gives them. */
  async normalise(tenantId: string, transaction: Transaction): Promise<Transaction> {
    if (!Array.isArray(transaction.lineItems)) return transaction;
    const catalogue = await this.catalogues.forTenant(tenantId);
    return { ...transaction, lineItems: catalogue.mapLineItems(transaction.lineItems as Record<string, unknown>[]) };
  }

  /** The set that applies to a transaction, or undefined when none of the tenant's active sets does. */
  async select(tenantId: string, transaction: ScopedTransaction): Promise<RuleSet | undefined> {
    const sets = await this.activeSets.getOrLoad(tenantId, () =>
      this.orm.em.fork().find(RuleSet, { tenant: tenantId, isActive: true }),
    );
    return selectRuleSet(sets, transaction);
  }

  /** POST /transactions-rule-engine/execute: the named set (active or not), else the one that applies; nothing stored. */
  async execute(tenantId: string, transaction: Transaction, ruleSetId?: string): Promise<RuleSetRun> {
    const normalised = await this.normalise(tenantId, transaction);
    const set = ruleSetId ? await this.findSet(tenantId, ruleSetId) : await this.select(tenantId, normalised);
    if (!set) throw new NotFoundError('No active rule set applies to this transaction');
    return { ruleSetId: set.id, ...(await this.run(tenantId, set, normalised)) };
  }

  /** Runs a set on a normalised transaction; a failure of the engine is a RuleEngineError. */
  async run(tenantId: string, set: RuleSet, transaction: Transaction): Promise<RuleEngineResult> {
    const [catalogue, venues] = await Promise.all([
      this.catalogues.forTenant(tenantId),
      this.venues.forTenant(tenantId),
    ]);
    let compiled = this.compiled.get(set);
    if (compiled?.venues !== venues) {
      const rules: ExecutableRule[] = set.rules.map((rule) => ({
        ...rule,
        conditions: rule.ruleProperties.conditions,
      }));
      compiled = { venues, rules: new CompiledRules(rules, [venueMatchesOperator(venues)]) };
      this.compiled.set(set, compiled);
    }
    try {
      return await compiled.rules.run(transaction, { [CATALOGUE_FACT]: catalogue.prices });
    } catch (error) {
      throw new RuleEngineError(`Rule set ${set.id} could not run on this transaction: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  forget(tenantId: string): void {
    this.activeSets.delete(tenantId);
  }

  private async findSet(tenantId: string, id: string): Promise<RuleSet | undefined> {
    if (!isUuid(id)) return undefined;
    return (await this.orm.em.fork().findOne(RuleSet, { tenant: tenantId, id })) ?? undefined;
  }
}
