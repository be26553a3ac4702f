import type { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../shared/platform/auth/scopes.js';
import { closeWorkers, startWorkers } from '../../workers/start-workers.js';
import { examplePath, examplesOf, ExampleWorld } from '../support/example-world.js';
import { createHarness, jsonOf, type Harness, type Json, type TestTenant } from '../support/harness.js';
import { operationsOf, type DocumentedOperation } from '../support/openapi-operations.js';

let harness: Harness;
let tenant: TestTenant;
let document: Json;
let workers: Worker[] = [];

beforeAll(async () => {
  harness = await createHarness();
  // Every operation of the document in a row, some tried with two credentials: more than one API key's burst.
  tenant = await harness.createTenant({ configuration: { rateLimit: { perSecond: 10_000, burst: 10_000 } } });
  // The examples' event, once registered, grants the examples' member the points the examples' purchase spends.
  workers = startWorkers(harness.context, ['events']);
  document = await jsonOf(await harness.request(null, 'GET', '/v1/openapi.json'));
});
afterAll(async () => {
  await closeWorkers(workers);
  await harness.close();
});

/**
 * The order the examples are sent in: what they create (in the document's order), then what they
 * add under it, then reads, then changes, and last deletions, latest first; so that each example
 * finds what it names, and nothing is changed (made inactive, say) before another example needs it.
 */
function phaseOf({ method, path }: DocumentedOperation): number {
  if (method === 'POST') return path.includes('{') ? 1 : 0;
  if (method === 'GET') return 2;
  if (method === 'PATCH' || method === 'PUT') return 3;
  return 4;
}

function inOrder(operations: DocumentedOperation[]): DocumentedOperation[] {
  return operations
    .map((operation, index) => ({ operation, index, phase: phaseOf(operation) }))
    .sort((a, b) => a.phase - b.phase || (a.phase === 4 ? b.index - a.index : a.index - b.index))
    .map(({ operation }) => operation);
}

/** What the server holds only once another example ran: an invite code exists once its member's referral code is first read. */
const SENT_FIRST: Record<string, string> = { recordReferralActivity: 'getOwnReferralCode' };

/** What the world waits for after an example: the event's points are in the wallet once a worker has registered it. */
const AFTERWARDS: Record<string, (data: Json) => Promise<void>> = {
  reportEvent: async (event) => {
    const reactions = await harness.request(tenant, 'GET', `/v1/events/${event.id}/reactions?wait=30000`);
    if (reactions.status !== 200) throw new Error(`event ${event.id} was not registered: ${reactions.status}`);
  },
};

/** Operations whose example is not sent, and why: none takes a request body. */
const NOT_SENT: Record<string, string> = {
  getReceiptOcrRead: "its answer is what OCR read off the claim's image, whose example address is not served here",
};

interface Credentials {
  name: string;
  tenant: TestTenant | null;
  token?: string;
}

/**
 * Each alternative of the operation's `security`, as the world holds it: the API key alone, or
 * with an admin token of the scope named, the token of the member the examples register, or the
 * secret the event types' routes answered last.
 */
async function credentialsOf(operation: DocumentedOperation, eventTypeSecret: string): Promise<Credentials[]> {
  const requirements = operation.operation.security ?? [];
  if (!requirements.length) return [{ name: 'no credentials', tenant: null }];
  const registration = examplesOf(
    operationsOf(document).find(({ operation }) => operation.operationId === 'registerUser')!,
  );
  return Promise.all(
    requirements.map(async (requirement): Promise<Credentials> => {
      const [scope] = (requirement.AdminToken ?? []) as Scope[];
      if (scope) return { name: `AdminToken ${scope}`, tenant, token: await harness.adminToken(tenant, [scope]) };
      if (requirement.MemberToken) {
        const { authIdentifier } = registration.request as { authIdentifier: string };
        return { name: 'MemberToken', tenant, token: await harness.userToken(tenant, authIdentifier) };
      }
      if (requirement.EventTypeSecret) return { name: 'EventTypeSecret', tenant, token: eventTypeSecret };
      return { name: 'ApiKey', tenant };
    }),
  );
}

describe('the API reference', () => {
  // Issue 31: "The example bodies of createRuleSet and createRuleSetRule are refused by the server … Send every
  // example request in the OpenAPI document to a real server in a test: each must succeed."
  // A hundred requests and more, one after another: more than the default bound on a busy machine.
  it(
    'shows examples that succeed when a client sends them, each with a credential its security names',
    { timeout: 120_000 },
    async () => {
      const world = new ExampleWorld();
      const operations = operationsOf(document);
      const byId = new Map(operations.map((operation) => [operation.operation.operationId!, operation]));
      const sent = new Set<string>();
      const faults: string[] = [];
      let eventTypeSecret = '';

      const send = async (operation: DocumentedOperation): Promise<void> => {
        const operationId = operation.operation.operationId!;
        if (sent.has(operationId) || NOT_SENT[operationId]) return;
        sent.add(operationId);
        if (SENT_FIRST[operationId]) await send(byId.get(SENT_FIRST[operationId])!);
        const { request, response } = examplesOf(operation);
        const path = examplePath(operation, world);
        if (path instanceof Error) return void faults.push(path.message);
        const refusals: string[] = [];
        // The first credential the server takes: a body may suit one of them only (a purchase with no `subject` is a member's).
        for (const credentials of await credentialsOf(operation, eventTypeSecret)) {
          const answer = await harness.request(credentials.tenant, operation.method, path, {
            ...(credentials.token ? { token: credentials.token } : {}),
            ...(request === undefined ? {} : { body: world.substitute(request) }),
          });
          const text = await answer.text();
          if (answer.status < 200 || answer.status > 299) {
            refusals.push(`${credentials.name}: ${answer.status} ${text.slice(0, 300)}`);
            continue;
          }
          const data = answer.headers.get('content-type')?.includes('json') ? JSON.parse(text).data : text;
          world.learnFrom(response, data);
          if (operation.path.startsWith('/v1/event_types') && data?.secret) eventTypeSecret = data.secret;
          await AFTERWARDS[operationId]?.(data);
          return;
        }
        faults.push(`${operation.name} (${operationId}) as ${path}: ${refusals.join('; ')}`);
      };
      for (const operation of inOrder(operations)) await send(operation);

      expect(faults).toEqual([]);
      const withBody = operations.filter((operation) => examplesOf(operation).request !== undefined);
      expect(
        withBody.filter((operation) => !sent.has(operation.operation.operationId!)).map(({ name }) => name),
      ).toEqual([]);
      expect(sent.size).toBe(operations.length - Object.keys(NOT_SENT).length);
    },
  );
});
