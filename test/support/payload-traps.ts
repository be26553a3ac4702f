/**
 * Payload values the probe of issue 31 sent, and conditions they break. A number sent as an
 * object naming its own `toString` and `valueOf`: JavaScript cannot read it as text or a number.
 */
export const CRAFTED_NUMBER = { toString: 'x', valueOf: 1 };

/**
 * Conditions that pass their dry run when saved, whose empty facts stop at the first condition,
 * while the second takes the payload's `acceptedTiers` as the list of values to compare `tier`
 * with: a payload whose `acceptedTiers` is no list cannot be evaluated.
 */
export const LISTED_TIER_CONDITIONS = {
  all: [
    { fact: 'payload', path: '$.kind', operator: 'equal', value: 'listed', priority: 2 },
    {
      fact: 'payload',
      path: '$.tier',
      operator: 'someValue:equal',
      value: { fact: 'payload', path: '$.acceptedTiers' },
      priority: 1,
    },
  ],
};
