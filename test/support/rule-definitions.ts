/** A CUSTOM rule definition as POST …/rule-sets takes it (docs/receipts.md#rule-definitions). */
export function customRule(
  name: string,
  priority: number,
  conditions: object,
  success: object[] = [],
  failure: object[] = [],
) {
  return {
    type: 'CUSTOM',
    name,
    priority,
    ruleProperties: { conditions, event: { type: name }, priority },
    resultParams: { success, failure },
  };
}

/** Conditions that hold when the transaction's total is over `amount`. */
export function totalOver(amount: number) {
  return { all: [{ fact: 'request', path: '$.transaction.total', operator: 'greaterThan', value: amount }] };
}
