import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantsScope, SCOPES, type Scope } from '../../shared/platform/auth/scopes.js';
import {
  createHarness,
  dataOf,
  jsonOf,
  registerMember,
  type Harness,
  type Json,
  type TestTenant,
} from '../support/harness.js';
import { operationsOf, type DocumentedOperation, type Operation } from '../support/openapi-operations.js';

let harness: Harness;
let tenant: TestTenant;
let memberToken: string;
let document: Json;

beforeAll(async () => {
  harness = await createHarness();
  // Every operation is probed three times or so: more than the default burst of one API key.
  tenant = await harness.createTenant({ configuration: { rateLimit: { perSecond: 10_000, burst: 10_000 } } });
  await registerMember(harness, tenant, await harness.adminToken(tenant, ['admin:users']), 'probe-member');
  memberToken = await harness.userToken(tenant, 'probe-member');
  document = await jsonOf(await harness.request(null, 'GET', '/v1/openapi.json'));
});
afterAll(() => harness.close());

/** The bearers an operation's `security` admits, each a requirement beside the API key. */
function admitted(operation: Operation) {
  const requirements = operation.security ?? [];
  return {
    adminScope: requirements.find((requirement) => requirement.AdminToken)?.AdminToken?.[0] as Scope | undefined,
    member: requirements.some((requirement) => 'MemberToken' in requirement),
    eventTypeSecret: requirements.some((requirement) => 'EventTypeSecret' in requirement),
    bearer: requirements.some((requirement) => Object.keys(requirement).some((scheme) => scheme !== 'ApiKey')),
  };
}

/**
 * The status of a request that passes the API key and meets the route's authorization, and
 * changes nothing past it: its path ids name nothing and its body, if it takes one, is empty.
 */
async function statusWith(operation: DocumentedOperation, token: string): Promise<number> {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => placeholderOf(operation.operation, name));
  const body = operation.operation.requestBody ? { body: {} } : {};
  const response = await harness.request(tenant, operation.method, path, { token, ...body });
  if (response.status >= 500)
    throw new Error(`${operation.name} answered ${response.status}: ${await response.text()}`);
  return response.status;
}

/** A value the route's path takes for the parameter (an event's id is digits), naming nothing the tenant has. */
function placeholderOf(operation: Operation, name: string): string {
  const parameter = operation.parameters?.find((candidate) => candidate.name === name) as Json;
  return parameter?.schema?.type === 'integer' ? '999999999' : '00000000-0000-4000-8000-000000000000';
}

// Issue 31: "Routes open to a member's token and an admin token (POST /users, POST /receipts, POST /purchases,
// GET /rewards, redeem_benefit) declare only the admin scope in security." docs/api-conventions.md#authentication.
describe("every operation's security says which bearers the server admits", () => {
  it('a member token, an admin token with the named scope, and no other admin token, as declared', async () => {
    const faults: string[] = [];
    const everyScope = await harness.adminToken(tenant, [...SCOPES]);
    let probed = 0;
    for (const operation of operationsOf(document)) {
      const declared = admitted(operation.operation);
      // Who may report an event depends on its type; the last test of this file reads that route.
      if (!declared.bearer || declared.eventTypeSecret) continue;
      probed += 1;
      const admits = async (token: string) => (await statusWith(operation, token)) !== 401;
      if ((await admits(memberToken)) !== declared.member)
        faults.push(`${operation.name}: a member's token is ${declared.member ? 'refused' : 'admitted'}`);
      if (!declared.adminScope) {
        if (await admits(everyScope)) faults.push(`${operation.name}: an admin token is admitted, undeclared`);
        continue;
      }
      if (!(await admits(await harness.adminToken(tenant, [declared.adminScope]))))
        faults.push(`${operation.name}: an admin token with ${declared.adminScope} is refused`);
      const others = SCOPES.filter((scope) => !grantsScope([scope], declared.adminScope!));
      if (await admits(await harness.adminToken(tenant, others)))
        faults.push(`${operation.name}: an admin token without ${declared.adminScope} is admitted`);
    }
    expect(faults).toEqual([]);
    expect(probed).toBeGreaterThan(60);
  });

  it("names both alternatives where an admin token and a member's token are taken, and the member's alone on /users/me", () => {
    const security = (method: string, path: string) => document.paths[path][method].security;
    const both = (scope: Scope) => [
      { ApiKey: [], AdminToken: [scope] },
      { ApiKey: [], MemberToken: [] },
    ];
    expect(security('post', '/v1/users')).toEqual(both('admin:users'));
    expect(security('post', '/v1/receipts')).toEqual(both('admin:receipts'));
    expect(security('post', '/v1/purchases')).toEqual(both('admin:rewards'));
    expect(security('get', '/v1/rewards')).toEqual(both('admin:rewards'));
    expect(security('post', '/v1/commands/redeem_benefit')).toEqual(both('admin:vouchers'));
    const own = operationsOf(document).filter((operation) => operation.path.startsWith('/v1/users/me'));
    expect(own.length).toBeGreaterThan(8);
    for (const operation of own)
      expect(operation.operation.security, operation.name).toEqual([{ ApiKey: [], MemberToken: [] }]);
    expect(document.components.securitySchemes).toMatchObject({
      AdminToken: { type: 'http', scheme: 'bearer' },
      MemberToken: { type: 'http', scheme: 'bearer' },
      EventTypeSecret: { type: 'http', scheme: 'bearer' },
    });
  });

  it("POST /v1/events takes a member's token for a public type and a private type's secret, never an admin token", async () => {
    expect(document.paths['/v1/events'].post.security).toEqual([
      { ApiKey: [], MemberToken: [] },
      { ApiKey: [], EventTypeSecret: [] },
    ]);
    const admin = await harness.adminToken(tenant, [...SCOPES]);
    const createType = async (name: string, isPrivate: boolean) =>
      dataOf<{ secret?: string }>(
        await harness.request(tenant, 'POST', '/v1/event_types', {
          token: admin,
          body: { name, description: 'probed', isPrivate },
        }),
      );
    await createType('SHOP_VISITED', false);
    const { secret } = await createType('TILL_SALE', true);
    const report = (body: object, token: string) => harness.request(tenant, 'POST', '/v1/events', { token, body });
    expect((await report({ type: 'SHOP_VISITED' }, memberToken)).status).toBe(201);
    expect((await report({ type: 'TILL_SALE', subject: 'probe-member' }, secret!)).status).toBe(201);
    expect((await report({ type: 'SHOP_VISITED' }, admin)).status).toBe(401);
    expect((await report({ type: 'TILL_SALE', subject: 'probe-member' }, admin)).status).toBe(401);
  });
});
