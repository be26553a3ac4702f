import type { RuleSet, RuleSetScope } from './rule-set.entity.js';

/** The transaction fields a scope names, as `$.transaction` carries them. */
export interface ScopedTransaction {
  formatSlug?: unknown;
  merchantName?: unknown;
  metadata?: { campaignId?: unknown } | null;
}

/**
 * docs/receipts.md#choosing-a-rule-set: "a set whose scope names a field that does not match the
 * transaction is not a candidate; among candidates the one matching the most scope fields wins,
 * ties to the latest updated; a set with no scope matches with zero fields". Only active sets are
 * candidates. Merchant names match without regard to case or surrounding spaces, as receipts print
 * them variously.
 */
export function selectRuleSet<Set extends Pick<RuleSet, 'isActive' | 'scope' | 'updatedAt'>>(
  sets: readonly Set[],
  transaction: ScopedTransaction,
): Set | undefined {
  let best: { set: Set; matched: number } | undefined;
  for (const set of sets) {
    if (!set.isActive) continue;
    const matched = matchedScopeFields(set.scope ?? {}, transaction);
    if (matched === undefined) continue;
    if (!best || matched > best.matched || (matched === best.matched && set.updatedAt > best.set.updatedAt))
      best = { set, matched };
  }
  return best?.set;
}

/** How many of the scope's fields the transaction matches; undefined when one does not match. */
function matchedScopeFields(scope: RuleSetScope, transaction: ScopedTransaction): number | undefined {
  const checks: [string | undefined, unknown, (a: string, b: string) => boolean][] = [
    [scope.formatSlug, transaction.formatSlug, (a, b) => a === b],
    [scope.merchantName, transaction.merchantName, (a, b) => a.trim().toLowerCase() === b.trim().toLowerCase()],
    [scope.campaignId, transaction.metadata?.campaignId, (a, b) => a === b],
  ];
  let matched = 0;
  for (const [wanted, actual, same] of checks) {
    if (wanted === undefined) continue;
    if (typeof actual !== 'string' || !same(wanted, actual)) return undefined;
    matched++;
  }
  return matched;
}
