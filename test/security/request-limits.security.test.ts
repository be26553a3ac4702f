import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi } from '../../api/server.js';
import { MAX_JSON_DEPTH } from '../../shared/platform/json/nesting-depth.js';
import { createHarness, type Harness, jsonOf, registerMember, type TestTenant } from '../support/harness.js';

let harness: Harness;
let tenant: TestTenant;
let admin: string;
let secret: string;

beforeAll(async () => {
  // A closing connection is read 1 MB at most after its 413 (LINGERING_BYTES), so a body far over that is not read to its end.
  harness = await createHarness({ lingeringBytes: 1024 * 1024 });
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:event_types', 'admin:users', 'admin:reactors', 'admin:rules']);
  secret = (
    await jsonOf(
      await harness.request(tenant, 'POST', '/v1/event_types', {
        token: admin,
        body: { name: 'DEEP', description: 'x', isPrivate: true },
      }),
    )
  ).data.secret;
  await registerMember(harness, tenant, admin, 'member');
});
afterAll(() => harness.close());

/** `{"a":{"a":…1}}` nested `depth` levels, as JSON text: the test's own JSON.stringify would overflow its stack. */
function nested(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** A JSON body around nested text: `around` holds `%` where it goes. */
function raw(around: string, inner: string) {
  return { rawBody: around.replace('%', inner), headers: { 'Content-Type': 'application/json' } };
}

// Issue 17, low: "Bodies or payloads nested 8,000–10,000 levels answer 500 …: cap nesting depth at parse time (400) for every JSON body."
describe('JSON nesting depth', () => {
  const deep = (depth: number) =>
    [
      [
        'POST /v1/events payload',
        'POST',
        '/v1/events',
        { token: secret, ...raw('{"type":"DEEP","subject":"member","payload":%}', nested(depth - 1)) },
      ],
      [
        'POST /v1/reactors conditions',
        'POST',
        '/v1/reactors',
        { token: admin, ...raw('{"name":"R","eventType":"DEEP","reactions":[],"conditions":%}', nested(depth - 1)) },
      ],
      [
        'POST /v1/users profile attributes',
        'POST',
        '/v1/users',
        {
          token: admin,
          ...raw(
            '{"isRestricted":false,"profile":{"familyName":"F","givenName":"G","emailAddress":"g@example.com","attributes":%}}',
            nested(depth - 2),
          ),
        },
      ],
      [
        'POST /v1/transactions-rule-engine/execute transaction',
        'POST',
        '/v1/transactions-rule-engine/execute',
        { token: admin, ...raw('{"transaction":%}', nested(depth - 1)) },
      ],
      [
        'an array body',
        'POST',
        '/v1/event_types',
        { token: admin, ...raw('%', '['.repeat(depth) + ']'.repeat(depth)) },
      ],
    ] as const;

  it.each(deep(10_000).map(([name]) => [name]))(
    '%s nested 10,000 levels is 400 ValidationError naming the limit',
    async (name) => {
      const [, method, path, options] = deep(10_000).find(([candidate]) => candidate === name)!;
      const response = await harness.request(tenant, method, path, options);
      expect(response.status).toBe(400);
      const body = await jsonOf(response);
      expect(body.status).toBe('fail');
      expect(body.data.errors).toEqual([
        expect.objectContaining({
          property: '(body)',
          constraints: { maxDepth: expect.stringContaining(`${MAX_JSON_DEPTH} levels`) },
        }),
      ]);
    },
  );

  it(`${MAX_JSON_DEPTH} levels are accepted, one more is not; brackets inside strings do not count`, async () => {
    const report = (payload: string) =>
      harness.request(tenant, 'POST', '/v1/events', {
        token: secret,
        ...raw('{"type":"DEEP","subject":"member","payload":%}', payload),
      });
    expect((await report(nested(MAX_JSON_DEPTH - 1))).status).toBe(201);
    expect((await report(nested(MAX_JSON_DEPTH))).status).toBe(400);
    expect((await report(JSON.stringify({ text: '[{'.repeat(1000) + '\\"\\\\' }))).status).toBe(201);
  });
});

const DECLARED = 4 * 1024 * 1024 * 1024;

/** Sends `declared` bytes of body after the head, as fast as the server takes them, until it closes the connection; tells what came back and how much was sent. */
function sendHugeBody(
  port: number,
  declared: number,
  headers: Record<string, string>,
): Promise<{ answer: string; sent: number }> {
  return new Promise((resolve) => {
    // Half-open: the server's FIN after its 413 does not stop this client writing; only the server's bound does.
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let answer = '';
    let sent = 0;
    const head = Object.entries({
      Host: 'tally.test',
      'Content-Type': 'application/json',
      'Content-Length': String(declared),
      ...headers,
    })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    const pump = () => {
      while (sent < declared && !socket.destroyed) {
        sent += chunk.length;
        if (!socket.write(chunk)) return socket.once('drain', pump);
      }
    };
    socket.on('data', (data: Buffer) => (answer += data.toString('latin1')));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => resolve({ answer, sent }));
    socket.write(`POST /v1/event_types HTTP/1.1\r\n${head}\r\n`);
    pump();
  });
}

// Issue 17, low: "A 50 MB body with a Content-Length gets 413 in 4 ms but the server then reads and
// discards all 50 MB (about 6 s), even without an API key: close the connection after the 413." Issue 31 has it
// read for a bounded time and size first, so that the client reads the 413 (oversized-uploads.security.test.ts).
describe('a body declared over the limit', () => {
  it('is answered 413 and its connection cut once past LINGERING_BYTES, not read to its 4 GB end, with or without an API key', async () => {
    const api = await startApi(harness.context, 0);
    try {
      const withKey: Record<string, string> = { 'X-Api-Key': tenant.key, Authorization: `Bearer ${admin}` };
      for (const headers of [withKey, {}]) {
        // Declared far past the 1 MB bound and what a tenth of a second carries (the bound is checked ten times a
        // second), so only the bound can end the connection; how far past it is read is the machine's speed.
        const { answer, sent } = await sendHugeBody(api.port, DECLARED, headers);
        expect(answer).toMatch(/^HTTP\/1\.1 413 /);
        expect(answer.toLowerCase()).toContain('connection: close');
        expect(sent).toBeLessThan(DECLARED);
      }
    } finally {
      await api.close();
    }
  });
});
