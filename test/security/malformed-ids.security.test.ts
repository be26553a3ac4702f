import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../shared/platform/auth/scopes.js';
import { createHarness, type Harness, type Json, jsonOf, type TestTenant } from '../support/harness.js';
import {
  operationsOf,
  type DocumentedOperation,
  type Parameter,
  type ParameterSchema,
} from '../support/openapi-operations.js';

let harness: Harness;
let tenant: TestTenant;
let admin: string;
let document: Json;

beforeAll(async () => {
  harness = await createHarness();
  // The walk sends some 900 requests (58 parameters × 16 ids), more than a key's burst of 400: the rate
  // limit is not what it tests.
  tenant = await harness.createTenant({ configuration: { rateLimit: { perSecond: 10_000, burst: 10_000 } } });
  admin = await harness.adminToken(tenant, [...SCOPES]);
  document = await jsonOf(await harness.request(null, 'GET', '/v1/openapi.json'));
});
afterAll(() => harness.close());

/** Each documented operation that takes a path parameter, with those parameters in path order. */
function operationsWithPathParameters(): (DocumentedOperation & { parameters: Parameter[] })[] {
  return operationsOf(document)
    .map((operation) => ({
      ...operation,
      parameters: (operation.operation.parameters ?? []).filter((parameter) => parameter.in === 'path'),
    }))
    .filter(({ parameters }) => parameters.length > 0);
}

/** A value of the parameter's declared format, naming nothing: the id beside the one under test. */
function wellFormed(parameter: Parameter): string {
  if (parameter.schema?.format === 'uuid') return randomUUID();
  if (parameter.schema?.type === 'integer') return '7';
  return 'nobody';
}

/**
 * What the probe sent (issue 31), as they appear in a URL, and "the like": numbers past int4 and
 * int8, leading zeros, a sign, a fraction, digits of another script, a NUL, a space, bytes that are
 * no UTF-8, and a string longer than any column.
 */
const MALFORMED = [
  '0',
  '-1',
  '1e3',
  'abc',
  '%00',
  'x'.repeat(300),
  '2147483648',
  '9223372036854775808',
  '99999999999999999999999',
  '007',
  '+1',
  '1.5',
  encodeURIComponent('١٢٣'),
  '%20',
  '%ED%A0%80',
  '%FF',
];

/** Whether the schema says which values can name a record: a format, a pattern, a length or a range. */
function declaresFormat(schema: ParameterSchema | undefined): boolean {
  if (!schema) return false;
  if (schema.anyOf) return schema.anyOf.every(declaresFormat);
  if (schema.type === 'integer') return schema.maximum !== undefined;
  return schema.format !== undefined || schema.pattern !== undefined || schema.maxLength !== undefined;
}

// decisions §3: "Unknown id: 404 NotFoundError." Issue 31: "Every path parameter is validated by its
// declared format before any lookup (a malformed id is 404 like an unknown one)."
describe('a malformed id in the path', () => {
  it('is told apart by the format each path parameter declares in the document', () => {
    const undeclared = operationsWithPathParameters().flatMap(({ name, parameters }) =>
      parameters
        .filter((parameter) => !declaresFormat(parameter.schema))
        .map((parameter) => `${name} ${parameter.name}: ${JSON.stringify(parameter.schema)}`),
    );
    expect(undeclared).toEqual([]);
  });

  it('is 404 NotFoundError on every route of the document, in every position, never a 5xx, and says its charset', async () => {
    const operations = operationsWithPathParameters();
    expect(operations.length).toBeGreaterThan(50);
    const faults: string[] = [];
    for (const { method, path, operation, parameters } of operations) {
      const body = operation.requestBody?.content['application/json']?.example;
      for (const tested of parameters) {
        for (const id of MALFORMED) {
          const url = parameters.reduce(
            (at, parameter) =>
              at.replace(`{${parameter.name}}`, parameter === tested ? id : encodeURIComponent(wellFormed(parameter))),
            path,
          );
          const response = await harness.request(tenant, method, url, {
            token: admin,
            ...(body === undefined ? {} : { body }),
          });
          const answer = await response.text();
          const name = (JSON.parse(answer) as { data?: { name?: string } }).data?.name;
          if (response.status !== 404 || name !== 'NotFoundError')
            faults.push(`${method} ${url.slice(0, 120)}: ${response.status} ${answer.slice(0, 200)}`);
          // decisions §14: "Every JSON answer is `Content-Type: application/json; charset=utf-8`."
          if (response.headers.get('content-type') !== 'application/json; charset=utf-8')
            faults.push(`${method} ${url.slice(0, 120)}: Content-Type ${response.headers.get('content-type')}`);
        }
      }
    }
    expect(faults).toEqual([]);
  });
});
