import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, dataOf, jsonOf, type Harness, type Json, type TestTenant } from '../support/harness.js';
import { customRule, totalOver } from '../support/rule-definitions.js';

let harness: Harness;
let tenant: TestTenant;
let admin: string;
let rulesPath: string;
/** The set's rules as stored, by name. */
const rules: Record<string, Json> = {};
const SETS = '/v1/transactions-rule-engine/rule-sets';

const basketRule = (name: string, priority: number) => ({
  type: 'BASKET',
  name,
  priority,
  configuration: { productId: 'SKU-OAT', isUnitPriceCheckNeeded: false },
  resultParams: { success: [], failure: [] },
});

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:rules']);
  const created = await harness.request(tenant, 'POST', SETS, {
    token: admin,
    body: {
      isActive: true,
      ruleDefinitions: [
        customRule('SMALL', 1, totalOver(1)),
        customRule('LARGE', 20, totalOver(100)),
        basketRule('Oat milk', 5),
        customRule('MEDIUM', 5, totalOver(10)),
      ],
    },
  });
  const set = await dataOf<Json>(created);
  rulesPath = `${SETS}/${set.id}/rules`;
  // One more, added later.
  await harness.request(tenant, 'POST', rulesPath, { token: admin, body: customRule('LATER', 3, totalOver(3)) });
  const stored = await dataOf<Json>(await harness.request(tenant, 'GET', `${SETS}/${set.id}`, { token: admin }));
  for (const rule of stored.rules) rules[rule.name] = rule;
});
afterAll(() => harness.close());

const list = (query = '', path = rulesPath, who: TestTenant = tenant, token = admin) =>
  harness.request(who, 'GET', `${path}${query}`, { token });

async function page(query: string): Promise<{ names: string[]; range: string | null }> {
  const response = await list(query);
  expect(response.status).toBe(200);
  return {
    names: (await dataOf<Json[]>(response)).map((rule) => rule.name),
    range: response.headers.get('content-range'),
  };
}

// decisions §14: "GET /v1/transactions-rule-engine/rule-sets/{id}/rules … are lists like every other (list
// helper, Content-Range)". decisions §3: "Every list: limit (default 10, maximum 1000, larger is 400), skip
// (default 0), sort, order (ASC/DESC), filter (O-Rison, §4), and the header Content-Range".
describe("a rule set's rules are a list like every other", () => {
  it('in the order they run (higher priority first) unless asked otherwise, the whole of them in Content-Range', async () => {
    expect(await page('')).toEqual({
      // Oat milk and MEDIUM share a priority: they run, and are listed, in the set's order.
      names: ['LARGE', 'Oat milk', 'MEDIUM', 'LATER', 'SMALL'],
      range: 'rule 0-4/5',
    });
  });

  it('of equal priority, in the order the engine runs them, which decides whose result key wins', async () => {
    // Eight rules of one priority setting the same key: their ids, random, say nothing of the order they run in.
    const tied = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'].map((name) =>
      customRule(name, 5, totalOver(0), [{ key: 'winner', value: name }]),
    );
    const created = await harness.request(tenant, 'POST', SETS, {
      token: admin,
      body: { isActive: false, ruleDefinitions: [customRule('FIRST', 9, totalOver(0)), ...tied] },
    });
    const { id } = await dataOf<Json>(created);
    const executed = await harness.request(tenant, 'POST', '/v1/transactions-rule-engine/execute', {
      token: admin,
      body: { transaction: { total: 10 }, ruleSetId: id },
    });
    const ran = await dataOf<Json>(executed);
    expect(ran.result).toEqual({ winner: 'A' });
    const listed = await dataOf<Json[]>(await list('?limit=100', `${SETS}/${id}/rules`));
    expect(listed.map((rule) => rule.name)).toEqual(['FIRST', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H']);
    expect(listed.map((rule) => rule.id)).toEqual(ran.rules.map((rule: Json) => rule.id));
  });

  it('limit and skip give a page; sort and order turn it round', async () => {
    expect(await page('?limit=2&skip=3')).toEqual({ names: ['LATER', 'SMALL'], range: 'rule 3-4/5' });
    expect(await page('?sort=name&order=ASC&limit=3')).toEqual({
      names: ['LARGE', 'LATER', 'MEDIUM'],
      range: 'rule 0-2/5',
    });
    expect(await page('?skip=5')).toEqual({ names: [], range: 'rule */5' });
  });

  it('filters on the name, the type, the priority, the id and when it was made', async () => {
    const filtered = async (filter: string) =>
      (await page(`?sort=name&order=ASC&filter=${encodeURIComponent(filter)}`)).names;
    expect(await filtered("type:(eq:'BASKET')")).toEqual(['Oat milk']);
    expect(await filtered('priority:(gt:3,lt:20)')).toEqual(['MEDIUM', 'Oat milk']);
    expect(await filtered("name:(like:'l%')")).toEqual(['LARGE', 'LATER']);
    expect(await filtered(`id:(in:!('${rules.SMALL.id}','${randomUUID()}'))`)).toEqual(['SMALL']);
    // Compared as instants: the stored times decide which rules come after SMALL, whatever the machine's pace.
    const after = Object.values(rules).filter((rule) => Date.parse(rule.createdAt) > Date.parse(rules.SMALL.createdAt));
    expect(after.map((rule) => rule.name)).toContain('LATER');
    expect(await filtered(`createdAt:(gt:'${rules.SMALL.createdAt}')`)).toEqual(after.map((rule) => rule.name).sort());
  });
});

describe("a rule set's rules: refused queries", () => {
  it.each([
    ['limit', '?limit=1001'],
    ['sort', '?sort=type'],
    ['resultParams', `?filter=${encodeURIComponent("resultParams:(has:'success')")}`],
    ['priority', `?filter=${encodeURIComponent("priority:(gt:'high')")}`],
  ])('%s: 400 naming it', async (property, query) => {
    const response = await list(query);
    expect(response.status).toBe(400);
    expect((await jsonOf(response)).data).toMatchObject({ name: 'ValidationError', errors: [{ property }] });
  });
});

describe("a rule set's rules: the tenant's own", () => {
  it("another tenant's set, or none at all, is 404", async () => {
    const other = await harness.createTenant();
    const otherAdmin = await harness.adminToken(other, ['admin:rules']);
    expect((await list('', rulesPath, other, otherAdmin)).status).toBe(404);
    expect((await list('', `${SETS}/${randomUUID()}/rules`)).status).toBe(404);
  });
});
