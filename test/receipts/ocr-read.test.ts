import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Worker } from 'bullmq';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageFetcher } from '../../shared/receipts/ocr/image-fetcher.js';
import { loadParseHints } from '../../shared/receipts/ocr/parse-hints.js';
import { createTextReader } from '../../shared/receipts/ocr/create-reader.js';
import { readClaim } from '../../shared/receipts/ocr/read-claim.js';
import { closeWorkers, startWorkers } from '../../workers/start-workers.js';
import { fixtureImage } from '../fixtures/receipts/fixture-image.js';
import { storeClaim } from '../support/receipts.js';
import { pageOf } from './parse/ocr-layout.js';
import {
  createHarness,
  dataOf,
  jsonOf,
  queryOne,
  registerMember,
  type Harness,
  type Json,
  type TestTenant,
} from '../support/harness.js';

const images: Record<string, Buffer> = {
  '/corner-shop.png': fixtureImage('corner-shop.png'),
  '/bistro-euro.png': fixtureImage('bistro-euro.png'),
  // Another picture of corner-shop.png: re-encoded as a JPEG, at 80% of its size.
  '/corner-shop-again.jpg': await sharp(fixtureImage('corner-shop.png'))
    .resize({ width: 448 })
    .jpeg({ quality: 60 })
    .toBuffer(),
  // A PNG cut short: its header says an image, its data ends early.
  '/truncated.png': fixtureImage('corner-shop.png').subarray(0, 4000),
};
let server: Server;
let base: string;
let harness: Harness;
let workers: Worker[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const bytes = images[request.url ?? ''];
    if (bytes) response.writeHead(200, { 'Content-Type': 'image/png' }).end(bytes);
    else response.writeHead(200, { 'Content-Type': 'image/png' }).end('%PDF-1.7 a document, not an image');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  harness = await createHarness({ fetchAllowPrivateAddresses: true });
  workers = startWorkers(harness.context, ['ocr', 'reviews']);
});
afterAll(async () => {
  await closeWorkers(workers);
  await harness.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A tenant whose receipts of 2026 are not too old, with a member and an admin; `review` adds to its review settings. */
async function world(review: Record<string, unknown> = {}) {
  const tenant = await harness.createTenant({ configuration: { review: { maxAgeDays: 100_000, ...review } } });
  const admin = await harness.adminToken(tenant, ['admin:receipts', 'admin:users', 'admin:rules']);
  await registerMember(harness, tenant, admin, 'shopper');
  return { tenant, admin };
}

async function claimImage(tenant: TestTenant, admin: string, path: string, submitter = 'shopper'): Promise<string> {
  const response = await harness.request(tenant, 'POST', '/v1/receipts', {
    token: admin,
    body: { useParser: true, pictureUrl: `${base}${path}`, submitter: { authIdentifier: submitter } },
  });
  expect(response.status).toBe(201);
  return (await dataOf<{ id: string }>(response)).id;
}

/** The receipt once it is decided: the reviewer runs after the read is stored, so the read is there too. */
async function decided(tenant: TestTenant, admin: string, id: string): Promise<Json> {
  const read = () => harness.request(tenant, 'GET', `/v1/receipts/${id}`, { token: admin }).then(dataOf<Json>);
  await expect.poll(async () => (await read()).paramountReview, { timeout: 30_000, interval: 50 }).not.toBeNull();
  return read();
}

const ocrOf = (tenant: TestTenant, admin: string, id: string) =>
  harness.request(tenant, 'GET', `/v1/receipts/${id}/ocr`, { token: admin });

// Issue 22, item 3: "The stored receipt keeps the raw OCR lines (or a reference to them) so a
// reviewer can see what was read"; item 2: "a `currency` field on the stored receipt" and the
// "merchant from the header, cross-checked against the tenant's known merchants and venues".
describe('a default-mode claim keeps what OCR read', () => {
  it('stores the parse with the known spelling of the merchant, and the lines read, which GET /v1/receipts/{id}/ocr shows', async () => {
    const { tenant, admin } = await world({ merchants: ['Corner Shop'] });
    const id = await claimImage(tenant, admin, '/corner-shop.png');
    const receipt = await decided(tenant, admin, id);
    // The receipt prints "CORNER SHOP"; the tenant's list spells it "Corner Shop".
    expect(receipt).toMatchObject({ merchantName: 'Corner Shop', total: 9.7, status: 'AUTHORIZED', currency: null });

    const response = await ocrOf(tenant, admin, id);
    expect(response.status).toBe(200);
    const read = await dataOf<Json>(response);
    expect(read).toMatchObject({
      engine: 'paddleocr-ppocrv4',
      width: images['/corner-shop.png']!.readUInt32BE(16),
      height: images['/corner-shop.png']!.readUInt32BE(20),
      readAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(read.confidence).toBeGreaterThan(0.5);
    expect(read.confidence).toBeLessThanOrEqual(1);
    expect(read.lines[0]).toEqual({
      text: expect.stringContaining('CORNER SHOP'),
      confidence: expect.any(Number),
      box: { x0: expect.any(Number), y0: expect.any(Number), x1: expect.any(Number), y1: expect.any(Number) },
    });
    expect(read.lines.map((line: Json) => line.text)).toContainEqual(expect.stringMatching(/TOTAL\s+9\.70/));
  });

  it("reads the currency from the receipt's prices, and takes a venue's name as a known merchant", async () => {
    const { tenant, admin } = await world();
    await harness.request(tenant, 'POST', '/v1/venues', { token: admin, body: { name: 'Bistro Lumière' } });
    const id = await claimImage(tenant, admin, '/bistro-euro.png');
    expect(await decided(tenant, admin, id)).toMatchObject({ currency: 'EUR', merchantName: 'Bistro Lumière' });
  });

  // Issue 32, Regions: "the parse keeps both when both are printed (merchantName and a merchantLegalName …)";
  // docs/receipts.md#records: the receipt keeps `merchantLegalName`, its confidence among the fields'.
  it('stores the legal name printed beside the trading name, with its confidence, and GET /v1/receipts/{id} shows it', async () => {
    const { tenant, admin } = await world();
    const claim = await storeClaim(harness, tenant, { parsedAt: null, pictureUrl: `${base}/corner-shop.png` });
    const page = pageOf(
      '#BREWERY TAP\nOwner by Castle Blue S/B{0.8}\n(1035683-T)\nBeer  9.00\nTOTAL  9.00\nCASH  9.00',
    );
    const reader = { readText: () => Promise.resolve(page), looksCloser: false, close: () => Promise.resolve() };
    await readClaim({ context: harness.context, fetcher: new ImageFetcher(true), reader }, tenant.id, claim.id, false);

    const receipt = await dataOf<Json>(
      await harness.request(tenant, 'GET', `/v1/receipts/${claim.id}`, { token: admin }),
    );
    expect(receipt).toMatchObject({ merchantName: 'BREWERY TAP', merchantLegalName: 'Owner by Castle Blue S/B' });
    expect(
      (await queryOne(harness, 'select field_confidences from receipt where id = ?', [claim.id])).field_confidences,
    ).toMatchObject({ merchantLegalName: 0.8 });
  });

  it('sends a claim whose image cannot be decoded to a person at the first attempt, saying so', async () => {
    const { tenant } = await world();
    const claim = await storeClaim(harness, tenant, { parsedAt: null, pictureUrl: `${base}/truncated.png` });
    const reading = {
      context: harness.context,
      fetcher: new ImageFetcher(true),
      reader: createTextReader(harness.context.config.ocrEngine),
    };
    await readClaim(reading, tenant.id, claim.id, false);
    await reading.reader.close();
    expect(
      await queryOne(harness, 'select parsed_at is not null as parsed, parse_error from receipt where id = ?', [
        claim.id,
      ]),
    ).toEqual({ parsed: true, parse_error: expect.stringMatching(/^the image could not be decoded \(/) });
  });

  it('writes the read once: a job run again for a parsed claim finds it read and reads nothing', async () => {
    const { tenant, admin } = await world();
    const id = await claimImage(tenant, admin, '/corner-shop.png');
    await decided(tenant, admin, id);
    const refusingReader = {
      readText: () => Promise.reject(new Error('a parsed claim is not read again')),
      looksCloser: false,
      close: () => Promise.resolve(),
    };
    const reading = { context: harness.context, fetcher: new ImageFetcher(true), reader: refusingReader };
    await readClaim(reading, tenant.id, id, false);
    expect(
      await queryOne(harness, 'select count(*)::int as reads from receipt_ocr_read where receipt_id = ?', [id]),
    ).toEqual({ reads: 1 });
  });
});

// Issue 32, "The same receipt twice": "A receipt already claimed, by the same member or another, is
// DUPLICATE even when the second picture is another photo of it"; docs/receipts.md#automated-checks:
// earlier claims of the same tenant only.
describe('another picture of a claimed receipt', () => {
  it("is REJECT DUPLICATE naming the earlier receipt and the hashes' distance, in the same tenant only", async () => {
    const { tenant, admin } = await world();
    // Another member: the same submitter's claim of the same merchant, date, time and total would
    // be a DUPLICATE by its details alone.
    await registerMember(harness, tenant, admin, 'friend');
    const first = await claimImage(tenant, admin, '/corner-shop.png');
    expect(await decided(tenant, admin, first)).toMatchObject({ status: 'AUTHORIZED' });
    const again = await decided(tenant, admin, await claimImage(tenant, admin, '/corner-shop-again.jpg', 'friend'));
    expect(again).toMatchObject({ status: 'REJECTED', paramountReview: { verdict: 'REJECT', reason: 'DUPLICATE' } });
    expect(again.paramountReview.checks[0]).toEqual({
      check: 'DUPLICATE',
      passed: false,
      detail: expect.stringMatching(
        new RegExp(`^another picture of receipt ${first}: their images' perceptual hashes differ in \\d+ of 256 bits`),
      ),
    });

    const elsewhere = await world();
    const copy = await decided(
      elsewhere.tenant,
      elsewhere.admin,
      await claimImage(elsewhere.tenant, elsewhere.admin, '/corner-shop-again.jpg'),
    );
    expect(copy).toMatchObject({ status: 'AUTHORIZED' });
  });
});

// A shop's receipts of one layout hash alike (docs/performance.md#perceptual-hash): the date and total read decide.
describe('a picture alike of a receipt whose total reads otherwise, or could not be read', () => {
  it.each([
    ['another amount', 'total + 1'],
    ['no total read', 'null'],
  ])('is no DUPLICATE: %s', async (_case, total) => {
    const { tenant, admin } = await world();
    await registerMember(harness, tenant, admin, 'friend');
    const first = await claimImage(tenant, admin, '/corner-shop.png');
    expect(await decided(tenant, admin, first)).toMatchObject({ status: 'AUTHORIZED' });
    // The earlier receipt as if it were another of the shop's, or one whose total was not read.
    await queryOne(harness, `update receipt set total = ${total} where id = ? returning id`, [first]);
    const other = await decided(tenant, admin, await claimImage(tenant, admin, '/corner-shop-again.jpg', 'friend'));
    expect(other).toMatchObject({ status: 'AUTHORIZED' });
  });
});

describe('GET /v1/receipts/{id}/ocr without a read', () => {
  it("is 404 for another tenant's receipt, as GET /v1/receipts/{id} is", async () => {
    const { tenant, admin } = await world();
    const id = await claimImage(tenant, admin, '/corner-shop.png');
    await decided(tenant, admin, id);
    const other = await world();
    const response = await ocrOf(other.tenant, other.admin, id);
    expect(response.status).toBe(404);
    expect((await jsonOf(response)).data.message).toBe(`No receipt "${id}"`);
  });

  it('is 404 saying why for a preparsed claim, a claim not read yet, and one whose image could not be read', async () => {
    const { tenant, admin } = await world();
    const preparsed = await dataOf<Json>(
      await harness.request(tenant, 'POST', '/v1/receipts', {
        token: admin,
        body: { useParser: false, submitter: { authIdentifier: 'shopper' }, ocrConfidence: 0.9, lineItems: [] },
      }),
    );
    const unread = await storeClaim(harness, tenant, { parsedAt: null });
    const unreadable = await claimImage(tenant, admin, '/not-an-image.png');
    await decided(tenant, admin, unreadable);
    for (const [id, message] of [
      [preparsed.id, /was preparsed/],
      [unread.id, /is not read yet/],
      [unreadable, /could not be read: .*not a PNG/], // why the image could not be had, as the review shows it
    ] as const) {
      const response = await ocrOf(tenant, admin, id);
      expect(response.status).toBe(404);
      expect((await jsonOf(response)).data).toMatchObject({
        name: 'NotFoundError',
        message: expect.stringMatching(message),
      });
    }
  });

  it('takes admin:receipts', async () => {
    const { tenant, admin } = await world();
    const id = await claimImage(tenant, admin, '/corner-shop.png');
    const reader = await harness.adminToken(tenant, ['admin:users']);
    expect((await ocrOf(tenant, reader, id)).status).toBe(401);
  });
});

// docs/users.md#erasure: a member's personal data goes; what refers to the member stays. The raw
// text of a receipt may hold a card's last digits or a name.
describe("a member's erasure", () => {
  it('removes the OCR reads of their receipts and keeps the receipts as parsed', async () => {
    const { tenant, admin } = await world();
    const id = await claimImage(tenant, admin, '/corner-shop.png');
    await decided(tenant, admin, id);
    expect((await harness.request(tenant, 'DELETE', '/v1/users/shopper', { token: admin })).status).toBe(200);
    const response = await ocrOf(tenant, admin, id);
    expect(response.status).toBe(404);
    expect((await jsonOf(response)).data.message).toMatch(/erased with its member's personal data/);
    expect(await decided(tenant, admin, id)).toMatchObject({ merchantName: 'CORNER SHOP', total: 9.7 });
  });

  it('keeps no OCR read of a claim whose read ends after the erasure', async () => {
    const { tenant, admin } = await world();
    const claim = await storeClaim(harness, tenant, { parsedAt: null, pictureUrl: `${base}/corner-shop.png` });
    const page = {
      width: 100,
      height: 40,
      confidence: 0.9,
      engine: 'a fixed page',
      lines: [{ text: 'TOTAL 9.70', box: { x0: 0, y0: 0, x1: 100, y1: 20 }, confidence: 0.9, words: [] }],
    };
    // The member is erased while the engine reads: the read finishes after the erasure committed.
    const reader = {
      readText: async () => {
        expect((await harness.request(tenant, 'DELETE', '/v1/users/shopper', { token: admin })).status).toBe(200);
        return page;
      },
      looksCloser: false,
      close: () => Promise.resolve(),
    };
    await readClaim({ context: harness.context, fetcher: new ImageFetcher(true), reader }, tenant.id, claim.id, false);
    expect(
      await queryOne(
        harness,
        'select parsed_at is not null as parsed, (select count(*)::int from receipt_ocr_read where receipt_id = ?) as reads from receipt where id = ?',
        [claim.id, claim.id],
      ),
    ).toEqual({ parsed: true, reads: 0 });
  });
});

describe("a tenant's parse hints", () => {
  it("are its review merchants, then its venues' names, each once", async () => {
    const { tenant, admin } = await world({ merchants: ['Acme Coffee', ' Bistro Lumière '] });
    for (const name of ['Acme Coffee Soho', 'Bistro Lumière'])
      await harness.request(tenant, 'POST', '/v1/venues', { token: admin, body: { name } });
    const hints = await loadParseHints(harness.context.orm.em.fork(), tenant.id);
    expect(hints).toEqual({ knownMerchants: ['Acme Coffee', 'Bistro Lumière', 'Acme Coffee Soho'] });
    expect(await loadParseHints(harness.context.orm.em.fork(), (await world()).tenant.id)).toEqual({});
  });
});
