import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Receipt } from '../../shared/receipts/receipt.entity.js';
import { storeClaim } from '../support/receipts.js';
import {
  createHarness,
  dataOf,
  jsonOf,
  registerMember,
  type Harness,
  type Json,
  type TestTenant,
} from '../support/harness.js';

let harness: Harness;
let tenant: TestTenant;
let admin: string;
let plain: Receipt;
let detailed: Receipt;

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:receipts', 'admin:users']);
  await registerMember(harness, tenant, admin, 'shopper');
  plain = await storeClaim(harness, tenant, { ocrConfidence: 0.4 });
  detailed = await storeClaim(harness, tenant, {
    ocrConfidence: 0.93,
    serviceTime: '14:32:00',
    correctedTotal: 15,
    transactionId: 'T-0042',
    locationIdentifier: 'STORE-12',
  });
});
afterAll(() => harness.close());

const list = (filter: string) =>
  harness.request(tenant, 'GET', `/v1/receipts?filter=${encodeURIComponent(filter)}`, { token: admin });

async function idsOf(filter: string): Promise<string[]> {
  const response = await list(filter);
  expect(response.status).toBe(200);
  return (await dataOf<Json[]>(response)).map((item) => item.id).sort();
}

// Issue 31: "GET /v1/receipts cannot filter on id, serviceTime, ocrConfidence, correctedTotal, transactionId,
// locationIdentifier." decisions §4: "Each list has an allow-list of filterable and sortable fields; anything else,
// a malformed string or a value of the wrong type is a 400 ValidationError that names the field."
describe('GET /v1/receipts filters on every field of its items and the ids a receipt carries', () => {
  it.each([
    ['id', () => `id:(eq:'${detailed.id}')`],
    ['serviceTime', () => "serviceTime:(gt:'12:00:00')"],
    ['ocrConfidence', () => 'ocrConfidence:(gt:0.5)'],
    ['correctedTotal', () => 'correctedTotal:(lt:20)'],
    ['transactionId', () => "transactionId:(eq:'T-0042')"],
    ['locationIdentifier', () => "locationIdentifier:(like:'store-%')"],
  ])('%s', async (_field, filter) => {
    expect(await idsOf(filter())).toEqual([detailed.id]);
  });

  it('!n finds the receipts without the value', async () => {
    expect(await idsOf('correctedTotal:(eq:!n),transactionId:(eq:!n)')).toEqual([plain.id]);
    expect(await idsOf(`id:(in:!('${plain.id}','${detailed.id}'))`)).toEqual([plain.id, detailed.id].sort());
  });

  it.each([
    ['id', "id:(eq:'T-0042')", /a UUID/],
    ['serviceTime', 'serviceTime:(eq:1432)', /a string/],
    ['ocrConfidence', "ocrConfidence:(gt:'0.5')", /a number/],
    ['correctedTotal', "correctedTotal:(lt:'twenty')", /a number/],
    ['transactionId', 'transactionId:(eq:42)', /a string/],
    ['locationIdentifier', 'locationIdentifier:(eq:!t)', /a string/],
  ])('a value of the wrong type for %s is 400 naming it', async (field, filter, expected) => {
    const response = await list(filter);
    expect(response.status).toBe(400);
    const body = await jsonOf(response);
    expect(body.data).toMatchObject({ name: 'ValidationError', errors: [{ property: field }] });
    expect(body.message).toMatch(expected);
  });
});
