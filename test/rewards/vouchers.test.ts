import { randomUUID } from 'node:crypto';
import type { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeWorkers, startWorkers } from '../../workers/start-workers.js';
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
import { ManualClock } from '../support/manual-clock.js';
import { codeOf, poolCodeFor, rewardFor, voucherFor } from '../support/rewards-setup.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

let harness: Harness;
let tenant: TestTenant;
let clock: ManualClock;
let workers: Worker[] = [];
/** The till: an admin token with `admin:vouchers`. */
let till: string;
let readUsers: string;
/** A till's token: it reads wallets and takes vouchers, so it is shown redeemed codes. */
let tillReader: string;
let usersAdmin: string;

beforeAll(async () => {
  // The service's time is the test's: a redemption window or a validity passes when the test moves the clock.
  clock = new ManualClock();
  clock.advance(Date.now());
  harness = await createHarness({ clock });
  workers = startWorkers(harness.context, ['audit']);
  tenant = await harness.createTenant();
  till = await harness.adminToken(tenant, ['admin:vouchers'], 'till-7');
  readUsers = await harness.adminToken(tenant, ['read:users']);
  tillReader = await harness.adminToken(tenant, ['read:users', 'admin:vouchers'], 'till-8');
  usersAdmin = await harness.adminToken(tenant, ['admin:users', 'admin:tenant']);
});
afterAll(async () => {
  await closeWorkers(workers);
  await harness.close();
});

interface Member {
  id: string;
  authIdentifier: string;
  token: string;
}

async function newMember(): Promise<Member> {
  const registered = await registerMember(harness, tenant, usersAdmin, `member-${randomUUID()}`);
  return {
    id: registered.id,
    authIdentifier: registered.authIdentifier,
    token: await harness.userToken(tenant, registered.authIdentifier),
  };
}

const wallet = (member: Member, query = '', token = tillReader) =>
  harness.request(tenant, 'GET', `/v1/users/${member.id}/wallet${query}`, { token });
const redeem = (voucherId: string, token: string) =>
  harness.request(tenant, 'POST', '/v1/commands/redeem_benefit', { token, body: { voucherId } });
const validate = (code: string, token = till) =>
  harness.request(tenant, 'POST', '/v1/commands/validate_voucher', { token, body: { code } });

/** The reward takes its vouchers' codes from the codes stored for it, as after an upload. */
async function givePool(rewardId: string): Promise<void> {
  await queryOne(harness, 'update reward set has_pool = true where id = ? returning id', [rewardId]);
}

async function errorOf(response: Response): Promise<[number, string]> {
  const body = await jsonOf(response);
  return [response.status, body.data.name];
}

describe('the wallet', () => {
  // rewards-interface "Voucher (wallet entry)": id, type VOUCHER, createdAt, redeemedAt, expiresAt, burnedAt, code
  // ("null until redeemed; then id, createdAt, updatedAt, redeemedAt, validatedAt, value"), reward ("id, type, name,
  // pictureUrl, purchasable, summary, defaultLocale, redemptionMessage; `discounts` (array) when requested"), owner.
  it('shows each unredeemed voucher with exactly the documented fields, its code hidden, its owner the member', async () => {
    const member = await newMember();
    const reward = await rewardFor(harness, tenant, {
      summary: 'Any hot drink',
      pictureUrl: 'https://cdn.example.org/coffee.png',
      redemptionMessage: 'Show this to the barista',
    });
    const voucherId = await voucherFor(harness, tenant, member.id, reward);
    const response = await wallet(member);
    expect(response.status).toBe(200);
    const data = await dataOf<Json>(response);
    const owner = await dataOf(await harness.request(tenant, 'GET', `/v1/users/${member.id}`, { token: usersAdmin }));
    expect(Object.keys(data).sort()).toEqual(['lifetimeEarn', 'loyaltyCost', 'points', 'tier', 'vouchers']);
    expect(data.vouchers).toHaveLength(1);
    const [voucher] = data.vouchers;
    const createdAt = new Date(clock.now()).toISOString();
    expect(voucher).toEqual({
      id: voucherId,
      type: 'VOUCHER',
      createdAt,
      redeemedAt: null,
      expiresAt: new Date(clock.now() + 365 * DAY_MS).toISOString(),
      burnedAt: null,
      code: null,
      reward: {
        id: reward,
        type: 'VOUCHER',
        name: 'Free coffee',
        pictureUrl: 'https://cdn.example.org/coffee.png',
        purchasable: true,
        summary: 'Any hot drink',
        defaultLocale: 'en',
        redemptionMessage: 'Show this to the barista',
      },
      owner,
    });
    // GET /users/me/wallet: "user token; same query parameters", the same wallet.
    const own = await harness.request(tenant, 'GET', '/v1/users/me/wallet', { token: member.token });
    expect(await dataOf(own)).toEqual(data);
  });

  // "`includeDiscounts` (boolean, optional; when true each voucher reward carries `discounts`, an empty array when none)"
  it('with includeDiscounts=true gives each reward its discounts, [] when it has none', async () => {
    const member = await newMember();
    const discounts = [{ type: 'FIXED', value: '3.50', sku: 'DISC-1', productSku: 'COFFEE' }];
    const withDiscounts = await rewardFor(harness, tenant, { discounts: discounts as never });
    const without = await rewardFor(harness, tenant);
    await voucherFor(harness, tenant, member.id, withDiscounts);
    clock.advance(1); // the wallet lists vouchers oldest first
    await voucherFor(harness, tenant, member.id, without);
    const data = await dataOf<Json>(await wallet(member, '?includeDiscounts=true'));
    expect(data.vouchers.map((voucher: Json) => voucher.reward.discounts)).toEqual([discounts, []]);
    const plain = await dataOf<Json>(await wallet(member, '?includeDiscounts=false'));
    expect(plain.vouchers.map((voucher: Json) => 'discounts' in voucher.reward)).toEqual([false, false]);
  });

  // The wallet reads its vouchers "in a bounded number of queries": one voucher or many, the same statements.
  it('reads one voucher or five in the same number of queries', async () => {
    const [one, five] = [await newMember(), await newMember()];
    const reward = await rewardFor(harness, tenant);
    await voucherFor(harness, tenant, one.id, reward);
    for (let index = 0; index < 5; index++) await voucherFor(harness, tenant, five.id, reward);
    const knex = harness.context.orm.em.getKnex();
    const queriesOf = async (member: Member) => {
      let count = 0;
      const counted = () => (count += 1);
      knex.on('query', counted);
      const data = await dataOf<Json>(
        await wallet(member, '?includeAllUnvalidatedVouchers=true&includeDiscounts=true'),
      );
      knex.off('query', counted);
      return [data.vouchers.length, count];
    };
    // The audit worker shares the database: its writes would be counted, so the outbox is let drain first.
    await expect
      .poll(async () => (await queryOne(harness, 'select count(*)::int as n from audit_outbox')).n, { timeout: 15_000 })
      .toBe(0);
    const [[oneVoucher, oneCount], [fiveVouchers, fiveCount]] = [await queriesOf(one), await queriesOf(five)];
    expect([oneVoucher, fiveVouchers]).toEqual([1, 5]);
    expect(fiveCount).toBe(oneCount);
    expect(oneCount).toBeGreaterThan(0);
  });

  it('refuses a query flag that is not a boolean: 400 naming it', async () => {
    const member = await newMember();
    const response = await wallet(member, '?includeAllUnvalidatedVouchers=yes');
    expect(response.status).toBe(400);
    expect(JSON.stringify(await jsonOf(response))).toContain('includeAllUnvalidatedVouchers');
  });

  // decisions §6: "`loyaltyCost` is the sum of the `cost` (money) of the rewards the user obtained."
  it('sums into loyaltyCost the cost of every reward obtained, validated ones included', async () => {
    const member = await newMember();
    const coffee = await rewardFor(harness, tenant, { cost: 2.5 });
    const cake = await rewardFor(harness, tenant, { cost: 4.25 });
    await voucherFor(harness, tenant, member.id, coffee);
    const burned = await voucherFor(harness, tenant, member.id, cake);
    expect((await dataOf<Json>(await wallet(member))).loyaltyCost).toBe(6.75);
    expect((await validate(await codeOf(harness, burned))).status).toBe(200);
    const data = await dataOf<Json>(await wallet(member));
    expect(data.loyaltyCost).toBe(6.75);
    expect(data.vouchers).toHaveLength(1);
    expect((await dataOf<Json>(await wallet(await newMember()))).loyaltyCost).toBe(0);
  });

  // "The wallet returns only unredeemed vouchers by default. With `includeAllUnvalidatedVouchers=true` it returns
  // all vouchers not yet validated." "unredeemed … user starts redemption … later wallet reads show the code"
  it('shows a redeemed voucher, with its code, only with includeAllUnvalidatedVouchers=true', async () => {
    const member = await newMember();
    const reward = await rewardFor(harness, tenant);
    const kept = await voucherFor(harness, tenant, member.id, reward);
    clock.advance(1); // the wallet lists vouchers oldest first
    const redeemed = await voucherFor(harness, tenant, member.id, reward);
    const answer = await redeem(redeemed, member.token);
    expect(answer.status).toBe(200);
    const view = await dataOf<Json>(answer);
    const code = await codeOf(harness, redeemed);
    expect(view.code).toEqual({
      id: expect.any(String),
      createdAt: expect.any(String),
      updatedAt: view.redeemedAt,
      redeemedAt: view.redeemedAt,
      validatedAt: null,
      value: code,
    });
    expect((await dataOf<Json>(await wallet(member))).vouchers.map((voucher: Json) => voucher.id)).toEqual([kept]);
    const all = await dataOf<Json>(await wallet(member, '?includeAllUnvalidatedVouchers=true'));
    expect(all.vouchers.map((voucher: Json) => [voucher.id, voucher.code?.value ?? null])).toEqual([
      [kept, null],
      [redeemed, code],
    ]);
  });

  // docs/rewards.md#codes: "A code is shown to its voucher's owner once the voucher is redeemed, and to
  // the till that validates it; to no one else."
  it("hides a redeemed code's value from an admin who reads wallets without admin:vouchers", async () => {
    const member = await newMember();
    const voucherId = await voucherFor(harness, tenant, member.id, await rewardFor(harness, tenant));
    await redeem(voucherId, member.token);
    const query = '?includeAllUnvalidatedVouchers=true';
    const [seen] = (await dataOf<Json>(await wallet(member, query, readUsers))).vouchers;
    expect(seen.code).toMatchObject({ redeemedAt: expect.any(String), value: null });
    const [own] = (
      await dataOf<Json>(
        await harness.request(tenant, 'GET', `/v1/users/me/wallet${query}`, {
          token: member.token,
        }),
      )
    ).vouchers;
    expect(own.code.value).toBe(await codeOf(harness, voucherId));
  });

  // docs/rewards.md#vouchers: "until it is validated at a till, expires, or was redeemed and left unvalidated past
  // its reward's `redemptionWindowMinutes`."
  it('loses a redeemed voucher once its redemption window passes unvalidated, and its code is then 410', async () => {
    const member = await newMember();
    const reward = await rewardFor(harness, tenant, { redemptionWindowMinutes: 15 });
    const voucherId = await voucherFor(harness, tenant, member.id, reward);
    const redeemedAt = clock.now();
    expect((await dataOf<Json>(await redeem(voucherId, member.token))).redeemedAt).toBe(
      new Date(redeemedAt).toISOString(),
    );
    clock.advance(15 * MINUTE_MS - 1);
    const during = await dataOf<Json>(await wallet(member, '?includeAllUnvalidatedVouchers=true'));
    expect(during.vouchers.map((voucher: Json) => voucher.id)).toEqual([voucherId]);
    clock.advance(1);
    const after = await dataOf<Json>(await wallet(member, '?includeAllUnvalidatedVouchers=true'));
    expect(after.vouchers).toEqual([]);
    expect(await errorOf(await validate(await codeOf(harness, voucherId)))).toEqual([410, 'VoucherExpiredError']);
    expect(await errorOf(await redeem(voucherId, member.token))).toEqual([410, 'VoucherExpiredError']);
  });

  // "A voucher … expires": `expiresAt` is voucherValidityDays after it was obtained.
  it('loses an expired voucher, which then answers 410 to redemption and validation', async () => {
    const member = await newMember();
    const reward = await rewardFor(harness, tenant, { voucherValidityDays: 1 });
    const voucherId = await voucherFor(harness, tenant, member.id, reward);
    clock.advance(DAY_MS);
    expect((await dataOf<Json>(await wallet(member))).vouchers).toEqual([]);
    expect(await errorOf(await redeem(voucherId, member.token))).toEqual([410, 'VoucherExpiredError']);
    expect(await errorOf(await validate(await codeOf(harness, voucherId)))).toEqual([410, 'VoucherExpiredError']);
  });
});

describe('POST /v1/commands/redeem_benefit', () => {
  // docs/rewards.md#vouchers: "Another member's voucher is 404 to a member, so its existence is not revealed."
  it("is 404 for another member's voucher, an unknown one and a malformed id", async () => {
    const [owner, other] = [await newMember(), await newMember()];
    const voucherId = await voucherFor(harness, tenant, owner.id, await rewardFor(harness, tenant));
    expect(await errorOf(await redeem(voucherId, other.token))).toEqual([404, 'NotFoundError']);
    expect(await errorOf(await redeem(randomUUID(), owner.token))).toEqual([404, 'NotFoundError']);
    expect(await errorOf(await redeem('not-an-id', till))).toEqual([404, 'NotFoundError']);
    expect(await queryOne(harness, 'select redeemed_at from voucher where id = ?', [voucherId])).toEqual({
      redeemed_at: null,
    });
  });

  // "Already redeemed and still in its window: 200 with the same voucher (a retried tap is not an error)."
  it('answers a retried tap with the same voucher, redeemedAt unchanged, and admits the till', async () => {
    const member = await newMember();
    const voucherId = await voucherFor(harness, tenant, member.id, await rewardFor(harness, tenant));
    const first = await dataOf<Json>(await redeem(voucherId, till));
    clock.advance(MINUTE_MS);
    const again = await redeem(voucherId, member.token);
    expect(again.status).toBe(200);
    expect(await dataOf(again)).toEqual(first);
  });

  it('is 409 VoucherAlreadyValidatedError for a validated voucher', async () => {
    const member = await newMember();
    const voucherId = await voucherFor(harness, tenant, member.id, await rewardFor(harness, tenant));
    expect((await validate(await codeOf(harness, voucherId))).status).toBe(200);
    expect(await errorOf(await redeem(voucherId, member.token))).toEqual([409, 'VoucherAlreadyValidatedError']);
  });
});

describe('POST /v1/commands/validate_voucher', () => {
  // docs/rewards.md#at-the-till: "an unknown code is 404"
  it('is 404 for an unknown code, and for a pool code no voucher holds', async () => {
    const reward = await rewardFor(harness, tenant);
    await poolCodeFor(harness, tenant, reward, 'UNHELD-1');
    expect(await errorOf(await validate('NO-SUCH-CODE'))).toEqual([404, 'NotFoundError']);
    expect(await errorOf(await validate('UNHELD-1'))).toEqual([404, 'NotFoundError']);
  });

  // "one validated already 409 `VoucherAlreadyValidatedError`"; the voucher leaves the wallet.
  it('burns a redeemed code once: 200 with the code and discounts, then 409', async () => {
    const member = await newMember();
    const discounts = [{ type: 'FIXED', value: '1.00', sku: 'D', productSku: 'P' }];
    const voucherId = await voucherFor(
      harness,
      tenant,
      member.id,
      await rewardFor(harness, tenant, { discounts: discounts as never }),
    );
    const redeemed = await dataOf<Json>(await redeem(voucherId, member.token));
    clock.advance(MINUTE_MS);
    const burnedAt = new Date(clock.now()).toISOString();
    const first = await validate(redeemed.code.value);
    expect(first.status).toBe(200);
    expect(await dataOf(first)).toEqual({
      ...redeemed,
      burnedAt,
      code: { ...redeemed.code, updatedAt: burnedAt, validatedAt: burnedAt },
      reward: { ...redeemed.reward, discounts },
    });
    expect(await errorOf(await validate(redeemed.code.value))).toEqual([409, 'VoucherAlreadyValidatedError']);
    expect((await dataOf<Json>(await wallet(member, '?includeAllUnvalidatedVouchers=true'))).vouchers).toEqual([]);
  });

  // "An unredeemed voucher presented at the till may be validated": it is redeemed and burned at once.
  it('validates an unredeemed voucher, setting redeemedAt too', async () => {
    const member = await newMember();
    const voucherId = await voucherFor(harness, tenant, member.id, await rewardFor(harness, tenant));
    const code = await codeOf(harness, voucherId);
    const view = await dataOf<Json>(await validate(code));
    const now = new Date(clock.now()).toISOString();
    expect([view.redeemedAt, view.burnedAt, view.code.value, view.code.validatedAt]).toEqual([now, now, code, now]);
  });

  // docs/rewards.md#codes: "a code is matched in any case and with any dashes or spaces …; it is shown as it was
  // generated or uploaded".
  it('matches a generated code typed in lower case with spaces for its dashes, and answers it as generated', async () => {
    const member = await newMember();
    const voucherId = await voucherFor(harness, tenant, member.id, await rewardFor(harness, tenant));
    const code = await codeOf(harness, voucherId);
    expect(code).toMatch(/^\w{4}-\w{4}-\w{4}$/);
    const typed = ` ${code.toLowerCase().replaceAll('-', ' ')} `;
    const validated = await validate(typed);
    expect(validated.status).toBe(200);
    expect((await dataOf<Json>(validated)).code.value).toBe(code);
  });

  it('matches an uploaded code whatever its case and dashes, and answers it as uploaded', async () => {
    const member = await newMember();
    const reward = await rewardFor(harness, tenant);
    await poolCodeFor(harness, tenant, reward, 'Summer-24-aB');
    await givePool(reward);
    await voucherFor(harness, tenant, member.id, reward);
    const validated = await validate('SUMMER24AB');
    expect(validated.status).toBe(200);
    expect((await dataOf<Json>(validated)).code.value).toBe('Summer-24-aB');
  });

  it('matches, exactly as given, a code uploaded while codes were matched only so', async () => {
    const member = await newMember();
    const reward = await rewardFor(harness, tenant);
    await poolCodeFor(harness, tenant, reward, 'old-Code', 'exact');
    await givePool(reward);
    await voucherFor(harness, tenant, member.id, reward);
    expect(await errorOf(await validate('OLD-CODE'))).toEqual([404, 'NotFoundError']);
    const validated = await validate('old-Code');
    expect(validated.status).toBe(200);
    expect((await dataOf<Json>(validated)).code.value).toBe('old-Code');
  });

  // docs/api-conventions.md#request-bodies: a bad field is 400 ValidationError naming it.
  it('refuses a code of dashes and spaces alone: 400 naming code', async () => {
    const response = await validate(' - -');
    expect(response.status).toBe(400);
    const { data } = await jsonOf(response);
    expect([data.name, data.errors.map((issue: Json) => issue.property)]).toEqual(['ValidationError', ['code']]);
  });

  // "Two tills validating one code at the same moment: one gets 200, the other 409."
  it('of one code by several tills at once answers exactly one 200, the rest 409', async () => {
    const member = await newMember();
    const voucherId = await voucherFor(harness, tenant, member.id, await rewardFor(harness, tenant));
    const code = await codeOf(harness, voucherId);
    const answers = await Promise.all(Array.from({ length: 6 }, () => validate(code)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409]);
  });
});

describe('access', () => {
  // docs/api-conventions.md#scopes; docs/rewards.md#at-the-till: redeem takes "the owner's token, or `admin:vouchers`",
  // validate `admin:vouchers`; the wallet by id `read:users`.
  it('is 401 without the scope each route takes', async () => {
    const member = await newMember();
    const voucherId = await voucherFor(harness, tenant, member.id, await rewardFor(harness, tenant));
    const code = await codeOf(harness, voucherId);
    expect((await redeem(voucherId, usersAdmin)).status).toBe(401);
    expect((await harness.request(tenant, 'POST', '/v1/commands/redeem_benefit', { body: { voucherId } })).status).toBe(
      401,
    );
    expect((await validate(code, member.token)).status).toBe(401);
    expect((await validate(code, usersAdmin)).status).toBe(401);
    expect((await harness.request(tenant, 'GET', `/v1/users/${member.id}/wallet`, { token: till })).status).toBe(401);
    expect(await queryOne(harness, 'select redeemed_at, burned_at from voucher where id = ?', [voucherId])).toEqual({
      redeemed_at: null,
      burned_at: null,
    });
  });

  it('refuses a body with fields beyond the documented ones: 400', async () => {
    const response = await harness.request(tenant, 'POST', '/v1/commands/validate_voucher', {
      token: till,
      body: { code: 'X', voucherId: randomUUID() },
    });
    expect(response.status).toBe(400);
  });
});

describe('the audit log', () => {
  // docs/rewards.md#at-the-till: "Redemptions (`voucher.redeemed`) and burns (`voucher.validated`) are in the audit
  // log." Neither entry holds the code.
  it('records the redemption by the member and the burn by the till, without the code', async () => {
    const member = await newMember();
    const voucherId = await voucherFor(harness, tenant, member.id, await rewardFor(harness, tenant));
    const code = await codeOf(harness, voucherId);
    expect((await redeem(voucherId, member.token)).status).toBe(200);
    expect((await redeem(voucherId, member.token)).status).toBe(200);
    clock.advance(MINUTE_MS); // the entries' occurredAt is the service's clock: the burn comes after the redemption
    expect((await validate(code)).status).toBe(200);
    const filter = encodeURIComponent(`resourceId:(eq:'${voucherId}')`);
    let entries: Json[] = [];
    await expect
      .poll(
        async () => {
          const listed = await harness.request(
            tenant,
            'GET',
            `/v1/audit-log?filter=${filter}&sort=occurredAt&order=ASC`,
            {
              token: usersAdmin,
            },
          );
          entries = await dataOf<Json[]>(listed);
          return entries.length;
        },
        { timeout: 15_000, interval: 50 },
      )
      .toBe(2);
    expect(entries.map((entry) => [entry.action, entry.actor.subject, entry.resourceType])).toEqual([
      ['voucher.redeemed', member.authIdentifier, 'voucher'],
      ['voucher.validated', 'till-7', 'voucher'],
    ]);
    expect(entries[0].before.redeemedAt).toBeNull();
    expect(entries[1].after.burnedAt).toEqual(expect.any(String));
    expect(JSON.stringify(entries)).not.toContain(code);
  });
});
