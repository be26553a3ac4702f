/** What every route of the transactions rule engine shares. */
export const RULE_SETS_PATH = '/v1/transactions-rule-engine/rule-sets';
export const access = { admin: 'admin:rules' } as const;
export const tags = ['Transactions rule engine'];
