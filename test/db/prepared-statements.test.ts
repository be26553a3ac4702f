import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { insertPrepared } from '../../shared/platform/db/prepared-statements.js';
import { readClaimUnderReview } from '../../shared/receipts/claim-under-review.js';
import { Receipt } from '../../shared/receipts/receipt.entity.js';
import { User } from '../../shared/users/user.entity.js';
import { createHarness, registerMember, type Harness, type TestTenant } from '../support/harness.js';

let harness: Harness;
let tenant: TestTenant;
let memberId: string;

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  const admin = await harness.adminToken(tenant, ['admin:users']);
  await registerMember(harness, tenant, admin, 'shopper');
  memberId = (await harness.context.orm.em.fork().findOneOrFail(User, { tenant: tenant.id, authIdentifier: 'shopper' }))
    .id;
});
afterAll(async () => {
  await harness.close();
});

const claim = (overrides: Record<string, unknown> = {}) => ({
  id: randomUUID(),
  tenant: tenant.id,
  submitter: memberId,
  status: 'PENDING' as const,
  statusVersion: 0,
  useParser: false,
  parsedAt: new Date('2026-11-22T10:00:00.000Z'),
  timezone: 'Europe/Paris',
  serviceDate: '2026-11-22',
  total: 12.5,
  ocrConfidence: 0.9412,
  fieldConfidences: { total: 0.95 },
  lineItems: [{ description: 'Oat milk', quantity: 2, unitPrice: 1.25, totalPrice: 2.5, productId: null }],
  metadata: { source: 'till', key: 'it\'s "quoted" ? and $1' },
  createdAt: new Date('2026-11-22T10:00:00.000Z'),
  updatedAt: new Date('2026-11-22T10:00:00.000Z'),
  ...overrides,
});

describe('prepared statements on the hot paths', () => {
  it('insert a row that reads back through the ORM as it was given: JSON, decimals, dates, and absent values as null', async () => {
    const given = claim();
    await insertPrepared(harness.context.orm.em.fork(), Receipt, given);
    const stored = await harness.context.orm.em.fork().findOneOrFail(Receipt, { id: given.id });
    expect(stored).toMatchObject({
      status: 'PENDING' as const,
      useParser: false,
      timezone: 'Europe/Paris',
      serviceDate: '2026-11-22',
      total: 12.5,
      ocrConfidence: 0.9412,
      fieldConfidences: { total: 0.95 },
      lineItems: given.lineItems,
      metadata: given.metadata,
      parsedAt: given.parsedAt,
      pictureUrl: null,
      barcode: null,
      paramountReviewId: null,
    });
    expect(stored.tenant.id).toBe(tenant.id);
    expect(stored.submitter.id).toBe(memberId);
  });

  it("insert a row whose left-out values take the entity's onCreate or the column's default, and whose references may be entities", async () => {
    const em = harness.context.orm.em.fork();
    const {
      statusVersion: _statusVersion,
      createdAt: _createdAt,
      updatedAt: _updatedAt,
      ...given
    } = claim({ submitter: em.getReference(User, memberId) });
    const before = Date.now();
    await insertPrepared(em, Receipt, given);
    const stored = await harness.context.orm.em.fork().findOneOrFail(Receipt, { id: given.id });
    expect(stored.statusVersion).toBe(0);
    expect(stored.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(stored.updatedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(stored.submitter.id).toBe(memberId);
  });

  it('keep working on connections that prepared them after a migration changes what they return: a column added, a column retyped', async () => {
    const ids = Array.from({ length: 12 }, () => claim().id);
    for (const id of ids) await insertPrepared(harness.context.orm.em.fork(), Receipt, claim({ id }));
    // Concurrently, so every pooled connection prepares the statements before each change.
    const readAll = () =>
      Promise.all(ids.map((id) => readClaimUnderReview(harness.context.orm.em.fork(), tenant.id, id)));
    expect((await readAll()).every((read) => read?.receipt.total === 12.5)).toBe(true);

    for (const migration of [
      'alter table receipt add column added_later text',
      'alter table receipt alter column language type text',
    ]) {
      await harness.context.orm.em.getConnection().execute(migration);
      await insertPrepared(harness.context.orm.em.fork(), Receipt, claim());
      const after = await readAll();
      expect(after.map((read) => read?.receipt.id)).toEqual(ids);
      expect(after.every((read) => read?.submitter === 'shopper' && read.receipt.total === 12.5)).toBe(true);
    }
  });
});
