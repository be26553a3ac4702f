import type { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeWorkers, startWorkers } from '../../workers/start-workers.js';
import { createHarness, dataOf, queryOne, registerMember, type Harness, type Json } from '../support/harness.js';

let harness: Harness;
let workers: Worker[] = [];

beforeAll(async () => {
  harness = await createHarness();
  workers = startWorkers(harness.context, ['reviews']);
});
afterAll(async () => {
  await closeWorkers(workers);
  await harness.close();
});

const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
const field = (value: string, confidence = 0.95) => ({ value, confidence });

async function world() {
  const tenant = await harness.createTenant();
  const admin = await harness.adminToken(tenant, ['admin:receipts', 'admin:users']);
  await registerMember(harness, tenant, admin, 'shopper');
  const claim = async (extra: Record<string, unknown>): Promise<string> => {
    const response = await harness.request(tenant, 'POST', '/v1/receipts', {
      token: admin,
      body: {
        useParser: false,
        submitter: { authIdentifier: 'shopper' },
        ocrConfidence: 0.93,
        serviceDate: field(yesterday()),
        total: field(String(10 + Math.random()).slice(0, 5)),
        merchantName: field('Corner Shop'),
        lineItems: [],
        ...extra,
      },
    });
    expect(response.status).toBe(201);
    return (await dataOf<{ id: string }>(response)).id;
  };
  const get = async (path: string) => dataOf<Json>(await harness.request(tenant, 'GET', path, { token: admin }));
  return { claim, get };
}

// Issue 22, item 2: "a `currency` field on the stored receipt"; preparsed mode takes it as one more
// `{value, confidence}` field (docs/receipts.md#claims).
describe('the currency of a preparsed claim', () => {
  it('is stored in upper case and shown in the full record and the list, which filters on it', async () => {
    const { claim, get } = await world();
    const euros = await claim({ currency: field('eur', 0.8) });
    const pounds = await claim({ currency: field('GBP') });

    expect(await get(`/v1/receipts/${euros}`)).toMatchObject({ id: euros, currency: 'EUR' });
    const list = await get('/v1/receipts?sort=createdAt&order=ASC');
    expect(list.map((item: Json) => [item.id, item.currency])).toEqual([
      [euros, 'EUR'],
      [pounds, 'GBP'],
    ]);
    const filtered = await get(`/v1/receipts?filter=${encodeURIComponent("currency:(eq:'GBP')")}`);
    expect(filtered.map((item: Json) => item.id)).toEqual([pounds]);
    // Confidences are kept for every field, as for the others.
    expect(
      (await queryOne(harness, 'select field_confidences from receipt where id = ?', [euros])).field_confidences,
    ).toMatchObject({ currency: 0.8 });
  });

  // docs/receipts.md#claims: "A value that cannot be read as its type … is left out rather than guessed".
  it.each([['euro'], ['€'], ['E1R'], ['']])(
    'leaves out %j, which is no ISO 4217 code, and keeps its confidence',
    async (value) => {
      const { claim, get } = await world();
      const id = await claim({ currency: field(value, 0.4) });
      const receipt = await get(`/v1/receipts/${id}`);
      expect(receipt.currency).toBeNull();
      expect(receipt.status).toBe('AUTHORIZED');
      expect(
        (await queryOne(harness, 'select field_confidences from receipt where id = ?', [id])).field_confidences,
      ).toMatchObject({ currency: 0.4 });
    },
  );

  it('is null when the claim names none', async () => {
    const { claim, get } = await world();
    expect((await get(`/v1/receipts/${await claim({})}`)).currency).toBeNull();
  });
});
