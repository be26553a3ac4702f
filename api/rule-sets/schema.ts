import { TIMESTAMPS } from '../../shared/platform/validation/timestamps.js';
import { Type, type Static } from 'typebox';
import { literalUnion } from '../../shared/platform/validation/literal-union.js';
import { TIMESTAMP_FIELDS, type ListSpec } from '../../shared/platform/lists/list-spec.js';
import { RULE_TYPES } from '../../shared/rules/rule-definition.js';
import { changesSchema } from '../../shared/platform/validation/changes-schema.js';
import { uuidPath } from '../routes/request-input.js';

/** A rule definition and its result parameters (docs/receipts.md#rule-definitions). */
const KeyValuePair = Type.Object(
  { key: Type.String({ minLength: 1, maxLength: 128 }), value: Type.Unknown() },
  { additionalProperties: false },
);

const ResultParams = Type.Object(
  { success: Type.Array(KeyValuePair, { maxItems: 50 }), failure: Type.Array(KeyValuePair, { maxItems: 50 }) },
  {
    additionalProperties: false,
    description: 'the key-value pairs the rule adds to the result when its conditions hold (success) or not (failure)',
  },
);

const RuleProperties = Type.Object(
  {
    conditions: Type.Record(Type.String(), Type.Unknown(), {
      description:
        'json-rules-engine conditions over the fact `request` (paths rooted at $.transaction) and the keys of earlier rules',
    }),
    event: Type.Object({ type: Type.String({ minLength: 1, maxLength: 128 }) }, { additionalProperties: false }),
    priority: Type.Optional(Type.Number()),
  },
  { additionalProperties: false },
);

const BasketConfiguration = Type.Object(
  {
    productId: Type.String({ minLength: 1, maxLength: 64, description: 'a product of /v1/products' }),
    isUnitPriceCheckNeeded: Type.Boolean(),
    overridingUnitPriceToCheckAgainst: Type.Optional(Type.Number({ minimum: 0 })),
  },
  { additionalProperties: false },
);

const ruleDefinitionFields = {
  type: literalUnion(RULE_TYPES),
  name: Type.String({ minLength: 1, maxLength: 128 }),
  priority: Type.Number({ description: 'higher runs first; equal priorities run together' }),
  ruleProperties: Type.Optional(RuleProperties),
  configuration: Type.Optional(Type.Union([BasketConfiguration, Type.Null()])),
  resultParams: ResultParams,
};

export const RuleDefinitionBody = Type.Object(ruleDefinitionFields, {
  title: 'RuleDefinition',
  additionalProperties: false,
});
export const UpdateRuleBody = changesSchema(RuleDefinitionBody, { title: 'UpdateRuleBody' });

const Scope = Type.Object(
  {
    formatSlug: Type.Optional(Type.String({ maxLength: 128 })),
    merchantName: Type.Optional(Type.String({ maxLength: 256 })),
    campaignId: Type.Optional(Type.String({ maxLength: 128 })),
  },
  {
    additionalProperties: false,
    description: 'the transactions this set is for; the active set matching the most fields wins',
  },
);

export const CreateRuleSetBody = Type.Object(
  {
    name: Type.Optional(Type.Union([Type.String({ maxLength: 256 }), Type.Null()])),
    isActive: Type.Boolean(),
    scope: Type.Optional(Type.Union([Scope, Type.Null()])),
    ruleDefinitions: Type.Optional(Type.Array(RuleDefinitionBody, { maxItems: 200 })),
  },
  { additionalProperties: false, title: 'CreateRuleSetBody' },
);
export const UpdateRuleSetBody = changesSchema(CreateRuleSetBody, {
  title: 'UpdateRuleSetBody',
  description: 'ruleDefinitions, when given, replace every rule of the set',
});

export const RuleResource = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    type: ruleDefinitionFields.type,
    priority: Type.Number(),
    ruleProperties: RuleProperties,
    resultParams: ResultParams,
    configuration: Type.Union([BasketConfiguration, Type.Null()]),
    warnings: Type.Optional(
      Type.Array(Type.String(), {
        description:
          "What to know of the rule as it was saved: a BASKET rule whose `productId` is no product's id or identifier in the catalogue is kept, matching line items whose `productId` is exactly that text",
      }),
    ),
    ...TIMESTAMPS,
  },
  { title: 'Rule' },
);

export const RuleSetResource = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.Union([Type.String(), Type.Null()]),
    isActive: Type.Boolean(),
    scope: Type.Union([Scope, Type.Null()]),
    rules: Type.Array(RuleResource),
    ...TIMESTAMPS,
  },
  { title: 'RuleSet' },
);

export const CreatedRuleSet = Type.Intersect(
  [
    RuleSetResource,
    Type.Object({
      tenant: Type.Object({
        id: Type.String(),
        name: Type.String(),
        slug: Type.String(),
        authentication: Type.Union([
          Type.Object({ issuer: Type.String(), algorithm: Type.String(), jwksUrl: Type.Optional(Type.String()) }),
          Type.Null(),
        ]),
        key: Type.String({ description: "the API key's prefix only, never the key" }),
        eventSecrets: Type.Record(Type.String(), Type.Null(), {
          description: 'the private event types, by name; never a secret',
        }),
        configuration: Type.Record(Type.String(), Type.Unknown()),
      }),
    }),
  ],
  { title: 'CreatedRuleSet' },
);

export const ExecuteBody = Type.Object(
  {
    transaction: Type.Record(Type.String(), Type.Unknown(), {
      description:
        'the normalised receipt: total, subtotal, lineItems, merchantName, merchantLegalName, formatSlug, serviceDate, servedAt, locationIdentifier, submissionPosition, metadata, submitter',
    }),
    ruleSetId: Type.Optional(
      Type.String({ format: 'uuid', description: 'run this set (active or not); absent: the active set that applies' }),
    ),
  },
  { additionalProperties: false, title: 'ExecuteRuleSetBody' },
);

export const RuleSetRunResource = Type.Object(
  {
    ruleSetId: Type.String({ format: 'uuid' }),
    result: Type.Record(Type.String(), Type.Unknown()),
    rules: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        priority: Type.Number(),
        outcome: Type.Union([Type.Literal('success'), Type.Literal('failure')]),
      }),
    ),
    stopped: Type.Boolean(),
  },
  { title: 'RuleSetRun' },
);

export const RULE_SET_LIST: ListSpec = {
  resource: 'rule-set',
  defaultSort: 'createdAt',
  fields: {
    name: { type: 'string', filterable: true, sortable: true },
    isActive: { type: 'boolean', filterable: true },
    ...TIMESTAMP_FIELDS,
  },
};

/**
 * GET …/rule-sets/{id}/rules: the rules of one set, read from the set's row (page-in-memory.ts). By
 * default in the order they run, higher priority first, rather than newest first: a set's rules are
 * read as the program they make.
 */
export const RULE_LIST: ListSpec = {
  resource: 'rule',
  defaultSort: 'priority',
  fields: {
    name: { type: 'string', filterable: true, sortable: true },
    id: { type: 'uuid', filterable: true },
    type: { type: 'string', filterable: true },
    priority: { type: 'number', filterable: true, sortable: true },
    ...TIMESTAMP_FIELDS,
  },
};

/** What every route of the transactions rule engine shares. */
export const RULE_SETS_PATH = '/v1/transactions-rule-engine/rule-sets';
export const access = { admin: 'admin:rules' } as const;
export const tags = ['Transactions rule engine'];
/**
 * How a rule the check refuses is answered, in the description of every route that stores rules:
 * 400 BadRequestError, as the receipts interface answers a priority mismatch. RuleEngineError (422)
 * is the engine failing to run a stored set on a transaction, which only execute answers.
 */
export const RULE_CHECK =
  'Each rule is checked as it is stored: a CUSTOM rule whose `name` or `priority` differs from its `ruleProperties.event.type` or `ruleProperties.priority`, conditions that do not build or evaluate, or a catalogue price check with no catalogue price to read is 400 BadRequestError naming the rule and the field.';

/** A CUSTOM rule's name and priority are repeated in its ruleProperties (docs/receipts.md#rule-definitions). */
export const RULE_PROPERTIES_EXAMPLE = {
  conditions: {
    all: [{ fact: 'request', path: '$.transaction.total', operator: 'greaterThanInclusive', value: 20 }],
  },
  event: { type: 'LARGE_BASKET' },
  priority: 10,
};

/** A rule as the examples send it, then as they show it stored, alone and in its set. */
export const RULE_DEFINITION_EXAMPLE = {
  type: 'CUSTOM',
  name: RULE_PROPERTIES_EXAMPLE.event.type,
  priority: RULE_PROPERTIES_EXAMPLE.priority,
  ruleProperties: RULE_PROPERTIES_EXAMPLE,
  resultParams: { success: [{ key: 'bonusPoints', value: 50 }], failure: [] },
} satisfies Static<typeof RuleDefinitionBody>;

export const RULE_EXAMPLE: Static<typeof RuleResource> = {
  id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  ...RULE_DEFINITION_EXAMPLE,
  configuration: null,
  createdAt: '2026-01-10T08:00:00.000Z',
  updatedAt: '2026-01-10T08:00:00.000Z',
};

export const RULE_SET_EXAMPLE: Static<typeof RuleSetResource> = {
  id: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e',
  name: 'Every shop',
  isActive: true,
  scope: null,
  rules: [RULE_EXAMPLE],
  createdAt: '2026-01-10T08:00:00.000Z',
  updatedAt: '2026-01-10T08:00:00.000Z',
};

const ruleSetId = { description: "The rule set's id", example: RULE_SET_EXAMPLE.id };
export const RuleSetIdParams = uuidPath({ id: ruleSetId });
export const RuleParams = uuidPath({
  id: ruleSetId,
  ruleId: { description: "The rule's id", example: RULE_EXAMPLE.id },
});
