/**
 * The shape a schema is compiled in, so that a failing body is told what was expected
 * (docs/api-conventions.md#request-bodies). TypeBox writes every union as `anyOf`, and ajv reports a
 * value that fails an `anyOf` against every branch at once: a reaction with a wrong `type` was told
 * it lacked both `points` and `webhookId`, and that its `type` "must be equal to constant". The
 * schema the OpenAPI document shows is left as it is; this copy means the same values and differs
 * only in the errors it gives:
 *
 * - a union of literals becomes an `enum`, whose error names every allowed value;
 * - a union of objects that each fix one required property to a different constant (a
 *   discriminator: `type`, `useParser`) checks that property alone against the allowed values,
 *   then the body against the branch that value picks, and no other;
 * - a value or `null` becomes one schema whose `type` lists both, so a wrong value is told the
 *   branch it failed rather than "must be null".
 */
export function readableUnions(schema: unknown): unknown {
  if (!isSchema(schema)) return schema;
  const copy: Schema = {};
  for (const [keyword, value] of Object.entries(schema)) copy[keyword] = rewriteKeyword(keyword, value);
  const { anyOf, ...rest } = copy;
  if (!Array.isArray(anyOf) || !anyOf.every(isSchema)) return copy;
  return literalsAsEnum(anyOf, rest) ?? discriminated(anyOf, rest) ?? nullable(anyOf, rest) ?? copy;
}

type Schema = Record<string, unknown>;
type Literal = string | number | boolean;

/** Keywords whose value is a map of schemas, an array of schemas, or one schema; the rest hold data. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const SCHEMAS = new Set([
  'items',
  'additionalItems',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
]);

function rewriteKeyword(keyword: string, value: unknown): unknown {
  if (SCHEMA_MAPS.has(keyword) && isSchema(value)) {
    return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, readableUnions(inner)]));
  }
  if (SCHEMA_LISTS.has(keyword) && Array.isArray(value)) return value.map(readableUnions);
  if (SCHEMAS.has(keyword)) return Array.isArray(value) ? value.map(readableUnions) : readableUnions(value);
  return value;
}

/** `'SUM' | 'MULTIPLY' | …` → `{enum: ['SUM', 'MULTIPLY', …]}`. */
function literalsAsEnum(branches: Schema[], rest: Schema): Schema | undefined {
  const onlyLiteral = (branch: Schema) =>
    isLiteral(branch.const) && Object.keys(branch).every((key) => key === 'const' || key === 'type');
  if (!branches.every(onlyLiteral)) return undefined;
  return { ...rest, enum: branches.map((branch) => branch.const) };
}

/**
 * `{type: 'POINTS', …} | {type: 'WEBHOOK', …}` → the discriminator checked first, then the one
 * branch its value picks (`if` it holds that value, `then` that branch).
 */
function discriminated(branches: Schema[], rest: Schema): Schema | undefined {
  if (branches.length < 2) return undefined;
  const property = discriminatorOf(branches);
  if (property === undefined) return undefined;
  const values = branches.map((branch) => (branch.properties as Record<string, Schema>)[property]!.const as Literal);
  return {
    ...rest,
    type: 'object',
    required: [property],
    properties: { [property]: { enum: values } },
    allOf: branches.map((branch, index) => ({
      if: { required: [property], properties: { [property]: { const: values[index] } } },
      then: branch,
    })),
  };
}

/** The first property every branch requires and fixes to a literal, each branch to a different one. */
function discriminatorOf(branches: Schema[]): string | undefined {
  const fixedBy = (branch: Schema): Map<string, Literal> => {
    const fixed = new Map<string, Literal>();
    const properties = branch.properties;
    if (branch.type !== 'object' || !isSchema(properties) || !Array.isArray(branch.required)) return fixed;
    for (const name of branch.required as unknown[]) {
      const property = typeof name === 'string' ? properties[name] : undefined;
      if (isSchema(property) && isLiteral(property.const)) fixed.set(name as string, property.const);
    }
    return fixed;
  };
  const [first, ...others] = branches.map(fixedBy);
  for (const name of first!.keys()) {
    if (!others.every((fixed) => fixed.has(name))) continue;
    const values = [first!.get(name), ...others.map((fixed) => fixed.get(name))];
    if (new Set(values).size === values.length) return name;
  }
  return undefined;
}

/** `string | null` → `{type: ['string', 'null']}`, keeping the string's own constraints. */
function nullable(branches: Schema[], rest: Schema): Schema | undefined {
  if (branches.length !== 2) return undefined;
  const isNull = (branch: Schema) => branch.type === 'null' && Object.keys(branch).length === 1;
  const other = branches.find((branch) => !isNull(branch));
  if (!other || !branches.some(isNull) || typeof other.type !== 'string') return undefined;
  if ('const' in other || 'enum' in other || 'anyOf' in other || 'allOf' in other || 'oneOf' in other) return undefined;
  return { ...rest, ...other, type: [other.type, 'null'] };
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isLiteral(value: unknown): value is Literal {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}
