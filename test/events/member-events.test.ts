import type { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeWorkers, startWorkers } from '../../workers/start-workers.js';
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
let reader: string;
let ada: Json;
let workers: Worker[] = [];
const secrets: Record<string, string> = {};
/** Ada's events, as reported: the newest last. */
const adaEvents: { id: number; type: string }[] = [];

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:users', 'admin:event_types']);
  reader = await harness.adminToken(tenant, ['read:users']);
  for (const [name, omitFromUserActivity] of [
    ['SHOP_VISITED', false],
    ['FRAUD_CHECKED', true],
  ] as const) {
    const created = await harness.request(tenant, 'POST', '/v1/event_types', {
      token: admin,
      body: { name, description: name, isPrivate: true, omitFromUserActivity },
    });
    secrets[name] = (await dataOf<{ secret: string }>(created)).secret;
  }
  ada = await registerMember(harness, tenant, admin, 'ada');
  await registerMember(harness, tenant, admin, 'grace');
  await registerMember(harness, tenant, admin, 'quiet');
  workers = startWorkers(harness.context, ['events']);
  const report = async (type: string, subject: string, n: number) => {
    const response = await harness.request(tenant, 'POST', '/v1/events', {
      token: secrets[type],
      body: { type, subject, payload: { n } },
    });
    const { id } = await dataOf<{ id: number }>(response);
    // Registered (the positive signal) before the next is reported, so each is listed.
    expect((await harness.request(tenant, 'GET', `/v1/events/${id}/reactions?wait=10000`)).status).toBe(200);
    return id;
  };
  for (const [n, type] of ['SHOP_VISITED', 'FRAUD_CHECKED', 'SHOP_VISITED', 'SHOP_VISITED'].entries())
    adaEvents.push({ id: await report(type, 'ada', n), type });
  await report('SHOP_VISITED', 'grace', 10);
  await report('SHOP_VISITED', harness.config.publicBaseUrl, 11);
});
afterAll(async () => {
  await closeWorkers(workers);
  await harness.close();
});

const list = (path: string, token: string) => harness.request(tenant, 'GET', path, { token });
const idsOf = async (response: Response) => (await dataOf<Json[]>(response)).map((event) => event.id);
const newestFirst = (events: { id: number }[]) => events.map((event) => event.id).reverse();

// decisions §14: "GET /v1/users/{id}/events (read:users) and GET /v1/users/me/events list the events whose subject is
// the member, newest first, with the list helper (Content-Range: event a-b/n); the member's own read leaves out types
// with omitFromUserActivity: true." rewards-interface: omitFromUserActivity is "ignored for admin reads".
describe("a member's events", () => {
  it("an admin with read:users reads every event of the member's, newest first, as GET /v1/events shows them", async () => {
    const response = await list('/v1/users/ada/events', reader);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Range')).toBe('event 0-3/4');
    const events = await dataOf<Json[]>(response);
    expect(events.map((event) => event.id)).toEqual(newestFirst(adaEvents));
    expect(events[0]).toMatchObject({
      type: { name: 'SHOP_VISITED' },
      subject: { id: ada.id, authIdentifier: 'ada' },
      payload: { n: 3 },
      registeredAt: expect.any(String),
    });
  });

  it("the member's own read leaves out the types with omitFromUserActivity: true", async () => {
    const token = await harness.userToken(tenant, 'ada');
    const response = await list('/v1/users/me/events', token);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Range')).toBe('event 0-2/3');
    expect(await idsOf(response)).toEqual(newestFirst(adaEvents.filter((event) => event.type === 'SHOP_VISITED')));
    const hidden = await list(
      `/v1/users/me/events?filter=${encodeURIComponent("type.name:(eq:'FRAUD_CHECKED')")}`,
      token,
    );
    expect(hidden.headers.get('Content-Range')).toBe('event */0');
    expect(await dataOf(hidden)).toEqual([]);
  });

  it('pages, sorts and filters with the list parameters', async () => {
    const second = await list('/v1/users/ada/events?limit=2&skip=2', reader);
    expect(second.headers.get('Content-Range')).toBe('event 2-3/4');
    expect(await idsOf(second)).toEqual(newestFirst(adaEvents).slice(2));
    const oldest = await list('/v1/users/ada/events?sort=id&order=asc&limit=1', reader);
    expect(await idsOf(oldest)).toEqual([adaEvents[0]!.id]);
    const visits = await list(
      `/v1/users/ada/events?filter=${encodeURIComponent("type.name:(eq:'SHOP_VISITED')")}`,
      reader,
    );
    expect(visits.headers.get('Content-Range')).toBe('event 0-2/3');
  });

  it('finds the member by its id, authIdentifier or account number; a member with no events has an empty list', async () => {
    for (const identifier of [ada.id, 'ada', String(ada.accountNumber)])
      expect((await list(`/v1/users/${identifier}/events`, reader)).headers.get('Content-Range')).toBe('event 0-3/4');
    const quiet = await list('/v1/users/quiet/events', reader);
    expect(quiet.headers.get('Content-Range')).toBe('event */0');
    expect(await dataOf(quiet)).toEqual([]);
  });
});

describe("a member's events: errors and access", () => {
  it('an unknown member is 404, and a bad list parameter 400 naming it', async () => {
    const unknown = await list('/v1/users/nobody/events', reader);
    expect(unknown.status).toBe(404);
    expect((await jsonOf(unknown)).data.name).toBe('NotFoundError');
    const tooMany = await list('/v1/users/ada/events?limit=1001', reader);
    expect(tooMany.status).toBe(400);
    expect(await jsonOf(tooMany)).toMatchObject({ data: { name: 'ValidationError', errors: [{ property: 'limit' }] } });
    const unsortable = await list('/v1/users/ada/events?sort=payload', reader);
    expect(await jsonOf(unsortable)).toMatchObject({ data: { errors: [{ property: 'sort' }] } });
  });

  it("another tenant's member is 404; a token without read:users, or a member's token on /users/{id}, is 401", async () => {
    const other = await harness.createTenant();
    const otherReader = await harness.adminToken(other, ['read:users']);
    for (const identifier of [ada.id, 'ada', String(ada.accountNumber)])
      expect(
        (await harness.request(other, 'GET', `/v1/users/${identifier}/events`, { token: otherReader })).status,
      ).toBe(404);
    const eventsAdmin = await harness.adminToken(tenant, ['admin:events']);
    expect((await list('/v1/users/ada/events', eventsAdmin)).status).toBe(401);
    expect((await list('/v1/users/ada/events', await harness.userToken(tenant, 'ada'))).status).toBe(401);
    expect((await list('/v1/users/me/events', reader)).status).toBe(401);
  });
});
