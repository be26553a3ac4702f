import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duplicateIdentity } from '../../shared/events/duplicate-window.js';
import { createHarness, dataOf, jsonOf, registerMember, type Harness, type TestTenant } from '../support/harness.js';
import { postEndlessBody } from '../support/streamed-body.js';

let harness: Harness;
let tenant: TestTenant;
let secret: string;
let userToken: string;
let admin: string;

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:event_types', 'admin:users', 'read:users']);
  const schema = { type: 'object', required: ['total'], properties: { total: { type: 'number' } } };
  const created = await harness.request(tenant, 'POST', '/v1/event_types', {
    token: admin,
    body: { name: 'PURCHASE_MADE', description: 'x', isPrivate: true, schema },
  });
  secret = (await dataOf<{ secret: string }>(created)).secret;
  await harness.request(tenant, 'POST', '/v1/event_types', {
    token: admin,
    body: { name: 'SHOP_VISITED', description: 'x', isPrivate: false },
  });
  await harness.request(tenant, 'POST', '/v1/event_types', {
    token: admin,
    body: { name: 'RETIRED', description: 'x', isPrivate: false, isActive: false },
  });
  await registerMember(harness, tenant, admin, 'member-1');
  userToken = await harness.userToken(tenant, 'member-1');
});
afterAll(() => harness.close());

const report = (body: unknown, token?: string) =>
  harness.request(tenant, 'POST', '/v1/events', { body, ...(token ? { token } : {}) });

async function expectEnvelope(response: Response, status: number, envelope: Record<string, unknown>) {
  expect(response.status).toBe(status);
  expect(await jsonOf(response)).toMatchObject(envelope);
}

// The errors of POST /v1/events, in the order docs/events.md#validation-order gives.
describe('POST /v1/events refusals', () => {
  it('a body over 300 kB is 413, refused before it is read whole', async () => {
    const body = JSON.stringify({
      type: 'PURCHASE_MADE',
      subject: 'member-1',
      payload: { total: 1, pad: 'x'.repeat(300 * 1024) },
    });
    const response = await harness.request(tenant, 'POST', '/v1/events', {
      token: secret,
      rawBody: body,
      headers: { 'Content-Type': 'application/json' },
    });
    await expectEnvelope(response, 413, { status: 'fail', data: { name: 'PayloadTooLargeError' } });
  });

  it('a streamed body (no Content-Length) is cut off once it passes 300 kB, not read whole', async () => {
    const { response, chunksPulled } = await postEndlessBody(harness, tenant, '/v1/events', secret);
    await expectEnvelope(response, 413, { status: 'fail', data: { name: 'PayloadTooLargeError' } });
    // 300 kB is 5 chunks.
    expect(chunksPulled).toBeLessThan(20);
  });

  it('a type not matching its pattern is 400 ValidationError with errors items', async () => {
    const response = await report({ type: 'purchase-made', subject: 'member-1' }, secret);
    await expectEnvelope(response, 400, {
      status: 'fail',
      data: { name: 'ValidationError', errors: [{ property: 'type', value: 'purchase-made', children: [] }] },
    });
  });

  it('an unknown or inactive type is 404 with empty data: "Failed to find a matching EventType"', async () => {
    for (const type of ['NOT_A_TYPE', 'RETIRED']) {
      const response = await report({ type }, userToken);
      expect(response.status).toBe(404);
      expect(await jsonOf(response)).toEqual({
        status: 'fail',
        message: 'Failed to find a matching EventType',
        data: {},
      });
    }
  });

  it('a wrong secret for a private type is 401 "Invalid authorization" with status error', async () => {
    const response = await report({ type: 'PURCHASE_MADE', subject: 'member-1', payload: { total: 1 } }, 'ets_wrong');
    await expectEnvelope(response, 401, {
      status: 'error',
      message: 'Invalid authorization',
      data: { name: 'UnauthorizedError' },
    });
    await expectEnvelope(await report({ type: 'PURCHASE_MADE', subject: 'member-1', payload: { total: 1 } }), 401, {
      status: 'error',
      message: 'Invalid authorization',
    });
  });

  it('a user token for a private type, or a secret for a public type, is 401 "Authorization does not match declared type"', async () => {
    await expectEnvelope(
      await report({ type: 'PURCHASE_MADE', subject: 'member-1', payload: { total: 1 } }, userToken),
      401,
      {
        status: 'error',
        message: 'Authorization does not match declared type',
      },
    );
    await expectEnvelope(await report({ type: 'SHOP_VISITED' }, secret), 401, {
      status: 'error',
      message: 'Authorization does not match declared type',
    });
    const admin = await harness.adminToken(tenant, ['admin:events']);
    await expectEnvelope(await report({ type: 'SHOP_VISITED' }, admin), 401, {
      status: 'error',
      message: 'Authorization does not match declared type',
    });
  });

  it('an invalid user token for a public type is 401 "Invalid authorization"', async () => {
    const other = await harness.createTenant();
    await expectEnvelope(await report({ type: 'SHOP_VISITED' }, await harness.userToken(other, 'member-1')), 401, {
      status: 'error',
      message: 'Invalid authorization',
    });
  });

  it('a payload that breaks the type\'s schema is 400 BadRequestError "Malformed payload …"', async () => {
    const response = await report({ type: 'PURCHASE_MADE', subject: 'member-1', payload: { total: 'ten' } }, secret);
    expect(response.status).toBe(400);
    const body = await jsonOf(response);
    expect(body).toMatchObject({ status: 'fail', data: { name: 'BadRequestError' } });
    expect(body.message).toMatch(/^Malformed payload/);
    await expectEnvelope(await report({ type: 'PURCHASE_MADE', subject: 'member-1' }, secret), 400, {
      data: { name: 'BadRequestError' },
    });
  });

  // docs/operations.md#durability: "An accepted request is never lost": what PostgreSQL cannot store could never be registered, so it is not accepted.
  it('a payload with text PostgreSQL cannot store (NUL, an unpaired surrogate, in a value or a key) is 400 ValidationError, never accepted', async () => {
    const constraint = 'text may not hold NUL characters or unpaired surrogates';
    for (const [payload, property] of [
      [{ total: 1, note: 'a\u0000b' }, 'payload.note'],
      [{ total: 1, lines: [{ name: 'half \ud83d' }] }, 'payload.lines[0].name'],
      [{ total: 1, ['key\u0000']: 1 }, 'payload'],
    ] as const) {
      const response = await report({ type: 'PURCHASE_MADE', subject: 'member-1', payload }, secret);
      await expectEnvelope(response, 400, {
        message: `Invalid body: ${property}: ${constraint}`,
        data: { name: 'ValidationError', errors: [{ property, constraints: { storable: constraint } }] },
      });
    }
    // A whole emoji (a surrogate pair) is text like any other.
    expect(
      (
        await report(
          { type: 'PURCHASE_MADE', subject: 'member-1', payload: { total: 1, note: 'thanks \ud83d\ude00' } },
          secret,
        )
      ).status,
    ).toBe(201);
  });

  // docs/events.md#subjects: "A public type refuses a subject in the body (400). A private type requires one."
  it('a subject on a public type, or none on a private type, is 400', async () => {
    await expectEnvelope(await report({ type: 'SHOP_VISITED', subject: 'member-1' }, userToken), 400, {
      data: { name: 'ValidationError' },
    });
    await expectEnvelope(await report({ type: 'PURCHASE_MADE', payload: { total: 1 } }, secret), 400, {
      data: { name: 'ValidationError' },
    });
  });

  // docs/events.md#subjects: "Team subjects: 400, not supported yet."
  it('a subject that resolves to nobody is 404; a team subject is 400, whatever members the tenant has', async () => {
    await expectEnvelope(
      await report({ type: 'PURCHASE_MADE', subject: 'nobody', payload: { total: 1 } }, secret),
      404,
      { data: { name: 'NotFoundError' } },
    );
    await expectEnvelope(await report({ type: 'PURCHASE_MADE', subject: 999, payload: { total: 1 } }, secret), 404, {
      data: { name: 'NotFoundError' },
    });
    await expectEnvelope(
      await report({ type: 'PURCHASE_MADE', subject: 'team.42', payload: { total: 1 } }, secret),
      400,
      {
        data: { name: 'ValidationError', errors: [{ property: 'subject', value: 'team.42', children: [] }] },
      },
    );
    const lookalike = await registerMember(harness, tenant, admin, 'team.43');
    await expectEnvelope(
      await report({ type: 'PURCHASE_MADE', subject: 'team.43', payload: { total: 1 } }, secret),
      400,
      { data: { name: 'ValidationError' } },
    );
    expect(
      (await report({ type: 'PURCHASE_MADE', subject: lookalike.id as string, payload: { total: 1 } }, secret)).status,
    ).toBe(201);
    // A public type's reporter must be a registered member.
    await expectEnvelope(await report({ type: 'SHOP_VISITED' }, await harness.userToken(tenant, 'unregistered')), 404, {
      data: { name: 'NotFoundError' },
    });
  });

  // docs/api-conventions.md#authentication: "The user's authIdentifier is sub"; docs/events.md#subjects: "The subject is assigned from that user".
  it("a user token whose sub is no member's authIdentifier is 404, even when it is another member's id or account number", async () => {
    const member = await dataOf<{ id: string; accountNumber: number }>(
      await harness.request(tenant, 'GET', '/v1/users/member-1', { token: admin }),
    );
    for (const sub of [member.id, String(member.accountNumber)]) {
      await expectEnvelope(await report({ type: 'SHOP_VISITED' }, await harness.userToken(tenant, sub)), 404, {
        data: { name: 'NotFoundError' },
      });
    }
  });

  // docs/events.md#duplicates: "An identical event (same type, subject, payload) reported within the previous 60 seconds is answered 409."
  it('the same type, subject and payload within 60 s is 409 "Event already exists" with empty data', async () => {
    const body = {
      type: 'PURCHASE_MADE',
      subject: 'member-1',
      payload: { total: 5, store: { id: 'a', city: 'Leeds' } },
    };
    expect((await report(body, secret)).status).toBe(201);
    // Keys in another order and another occurredAt: still the same event (docs/events.md#duplicates).
    const again = await report(
      {
        subject: 'member-1',
        type: 'PURCHASE_MADE',
        occurredAt: '2026-01-01T00:00:00Z',
        payload: { store: { city: 'Leeds', id: 'a' }, total: 5 },
      },
      secret,
    );
    expect(again.status).toBe(409);
    expect(await jsonOf(again)).toEqual({ status: 'error', message: 'Event already exists', data: {} });
    // The same member named another way resolves to the same subject.
    const user = await dataOf<{ id: string; accountNumber: number }>(
      await harness.request(tenant, 'GET', '/v1/users/member-1', {
        token: await harness.adminToken(tenant, ['admin:users']),
      }),
    );
    expect((await report({ ...body, subject: user.id }, secret)).status).toBe(409);
    expect((await report({ ...body, subject: user.accountNumber }, secret)).status).toBe(409);
    // Another payload is another event.
    expect((await report({ ...body, payload: { total: 6 } }, secret)).status).toBe(201);

    // docs/events.md#duplicates: "duplicate window 60 seconds": the claim lapses then, and the same report is a new event.
    const claimKey = `${harness.context.queues.events.qualifiedName}:reported:${duplicateIdentity(tenant.id, 'PURCHASE_MADE', user.id, body.payload)}`;
    const lapsesInMs = await harness.context.redis.pttl(claimKey);
    expect(lapsesInMs).toBeGreaterThan(50_000);
    expect(lapsesInMs).toBeLessThanOrEqual(60_000);
    await harness.context.redis.pexpire(claimKey, 1); // as if the minute had passed
    await expect.poll(() => harness.context.redis.exists(claimKey)).toBe(0);
    expect((await report(body, secret)).status).toBe(201);
  });

  // docs/events.md#validation-order: "Validation order: size (413 …), body shape (400), event type exists and is active (404 …), authorization
  // matches the type (401), payload meets the type's schema (400 Malformed payload …), subject resolves (404), duplicate (409)."
  it('the order holds: a bad shape wins over an unknown type, an unknown type over a bad token, a bad token over a bad payload, a bad payload over an unknown subject', async () => {
    const badShape = await report({ type: 'NOT_A_TYPE', subject: 'nobody', colour: 'red' }, 'ets_wrong');
    await expectEnvelope(badShape, 400, { data: { name: 'ValidationError' } });
    expect((await report({ type: 'NOT_A_TYPE', subject: 'nobody' }, 'ets_wrong')).status).toBe(404);
    expect(
      (await report({ type: 'PURCHASE_MADE', subject: 'nobody', payload: { total: 'x' } }, 'ets_wrong')).status,
    ).toBe(401);
    expect((await report({ type: 'PURCHASE_MADE', subject: 'nobody', payload: { total: 'x' } }, secret)).status).toBe(
      400,
    );
  });
});
