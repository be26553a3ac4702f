import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, dataOf, jsonOf, registerMember, type Harness, type TestTenant } from '../support/harness.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

let proxy: TcpProxy;
let harness: Harness;
let tenant: TestTenant;
let admin: string;
/** The reasons the service logged for its 503s (api/errors/error-handler.ts), in order. */
const unavailableReasons: string[] = [];
const logs = new Writable({
  write(line: Buffer, _encoding, done) {
    const entry = JSON.parse(line.toString());
    if (entry.cause?.name === 'DatabaseUnavailable') unavailableReasons.push(entry.cause.reason);
    done();
  },
});

beforeAll(async () => {
  // The service reaches PostgreSQL through a proxy of this file's own, so the test can take the
  // database away from it without disturbing the other test files.
  proxy = await startTcpProxy({ host: '127.0.0.1', port: 5432 });
  harness = await createHarness({ databasePort: proxy.port }, logs);
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:users', 'read:users']);
  await registerMember(harness, tenant, admin, 'member-1');
});
afterAll(async () => {
  await harness.close();
  await proxy.close();
});

const readMember = () => harness.request(tenant, 'GET', '/v1/users/member-1', { token: admin });

async function expectUnavailable(response: Response): Promise<void> {
  expect(response.status).toBe(503);
  expect(response.headers.get('Retry-After')).toBe('5');
  expect(await jsonOf(response)).toEqual({
    status: 'error',
    message: 'The database is unavailable: retry shortly',
    data: { name: 'ServiceUnavailableError', httpCode: 503, message: 'The database is unavailable: retry shortly' },
  });
}

// docs/api-conventions.md#errors: every error answers in the envelope `{status, message, data: {name, httpCode, message}}`;
// a database that is away is the service's trouble, and a retry will do once it is back: 503, not 500.
describe('while the database is away', () => {
  it('a request that needs it answers 503 with Retry-After, whether its connection dropped or a new one fails, and works again once it is back', async () => {
    expect((await readMember()).status).toBe(200);
    await proxy.cut();
    await expectUnavailable(await readMember());
    await expectUnavailable(await readMember());
    // A registration runs in a transaction; an Idempotency-Key runs raw queries: both answer the same.
    const registration = {
      isRestricted: false,
      profile: { givenName: 'Jo', familyName: 'Doe', emailAddress: 'jo@example.com' },
    };
    await expectUnavailable(
      await harness.request(tenant, 'POST', '/v1/users', {
        token: admin,
        body: { ...registration, authIdentifier: 'member-2' },
      }),
    );
    await expectUnavailable(
      await harness.request(tenant, 'POST', '/v1/users', {
        token: admin,
        body: { ...registration, authIdentifier: 'member-3' },
        headers: { 'Idempotency-Key': 'outage-1' },
      }),
    );
    await proxy.restore();
    expect(await dataOf(await readMember())).toMatchObject({ authIdentifier: 'member-1' });
  });

  // The bound is asserted as configured, and seen to be what failed the request; not as wall time,
  // which a busy machine stretches. The test's own timeout, below knex's default minute, catches a
  // wait left unbounded.
  it('a new connection to a database gone silent fails the request within the connection wait, not after a minute', async () => {
    // shared/platform/db/orm.ts waits at most 5 s for a connection, and 2.5 s for an attempt; knex's own default is 60 s.
    expect(harness.context.orm.config.get('driverOptions')).toMatchObject({
      acquireConnectionTimeout: 5000,
      connection: { connectionTimeoutMillis: 2500 },
    });
    await proxy.stall();
    // The first may fail at once on its pooled connection, dropped; the second waits for a new one.
    await expectUnavailable(await readMember());
    const before = unavailableReasons.length;
    await expectUnavailable(await readMember());
    expect(unavailableReasons.slice(before)).toEqual([
      expect.stringMatching(/^(no pooled connection came free in time|a connection attempt was not answered in time)/),
    ]);
    await proxy.restore();
    // A request already waiting may still be given an attempt made while it was silent: a retry will do.
    await expect.poll(async () => (await readMember()).status, { timeout: 10_000 }).toBe(200);
  }, 40_000);
});
