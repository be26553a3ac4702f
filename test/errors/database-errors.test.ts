import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translateDatabaseError } from '../../shared/platform/db/database-errors.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../shared/platform/errors/app-errors.js';
import { createHarness, type Harness, type TestTenant } from '../support/harness.js';

let harness: Harness;
let tenant: TestTenant;

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
});
afterAll(() => harness.close());

async function failureOf(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected the database to refuse');
}

const execute = (sql: string, params: unknown[] = []) =>
  harness.context.orm.em.fork().getConnection().execute(sql, params);

// Issue 3 §4: "Database failures (unique, foreign key, serialization, not-null) are translated into typed errors in one place."
describe('database failures become typed errors', () => {
  it('a unique violation is 409 ConflictError naming the fields, without the tenant column', async () => {
    const error = await failureOf(() =>
      execute(
        "insert into event_type (id, tenant_id, name, description, is_private, created_at, updated_at) values (?, ?, 'ORDER_PLACED', 'x', true, now(), now())",
        [randomUUID(), tenant.id],
      ),
    );
    const translated = translateDatabaseError(error);
    expect(translated).toBeInstanceOf(ConflictError);
    expect(translated?.message).toBe('A record with the same name already exists');
    expect(translated?.data).toMatchObject({ explanation: expect.any(String), fields: ['name'] });
  });

  it('a foreign key violation is 404 NotFoundError', async () => {
    const error = await failureOf(() =>
      execute(
        "insert into event_type (id, tenant_id, name, description, is_private, created_at, updated_at) values (?, ?, 'X', 'x', true, now(), now())",
        [randomUUID(), randomUUID()],
      ),
    );
    expect(translateDatabaseError(error)).toBeInstanceOf(NotFoundError);
  });

  it('a not-null violation is 400 BadRequestError naming the field', async () => {
    const error = await failureOf(() =>
      execute(
        "insert into event_type (id, tenant_id, name, description, is_private, created_at, updated_at) values (?, ?, 'Y', null, true, now(), now())",
        [randomUUID(), tenant.id],
      ),
    );
    const translated = translateDatabaseError(error);
    expect(translated).toBeInstanceOf(BadRequestError);
    expect(translated?.message).toContain('description');
  });

  // docs/api-conventions.md#errors: "a value longer than its column `400 BadRequestError`".
  it('a string longer than its column is 400 BadRequestError', async () => {
    const error = await failureOf(() =>
      execute(
        "insert into event_type (id, tenant_id, name, description, is_private, created_at, updated_at) values (?, ?, ?, 'x', true, now(), now())",
        [randomUUID(), tenant.id, 'N'.repeat(300)],
      ),
    );
    const translated = translateDatabaseError(error);
    expect(translated).toBeInstanceOf(BadRequestError);
    expect(translated?.message).toBe('A value is longer than its field takes');
  });

  it('a serialization failure is 409 ConflictError asking for a retry', async () => {
    // Two serializable transactions that each read what the other writes: PostgreSQL aborts one.
    const em = harness.context.orm.em;
    const first = em.fork();
    const second = em.fork();
    const error = await failureOf(async () => {
      await first.begin({ isolationLevel: 'serializable' as never });
      await second.begin({ isolationLevel: 'serializable' as never });
      try {
        await first
          .getConnection()
          .execute(
            "select count(*) from event_type where description = 'rw'",
            [],
            'all',
            first.getTransactionContext(),
          );
        await second
          .getConnection()
          .execute(
            "select count(*) from event_type where description = 'rw'",
            [],
            'all',
            second.getTransactionContext(),
          );
        await first
          .getConnection()
          .execute(
            "update event_type set description = 'rw' where name = 'ORDER_PLACED' and tenant_id = ?",
            [tenant.id],
            'run',
            first.getTransactionContext(),
          );
        await second
          .getConnection()
          .execute(
            "update event_type set description = 'rw' where name = 'RECEIPT_REVIEWED' and tenant_id = ?",
            [tenant.id],
            'run',
            second.getTransactionContext(),
          );
        await first.commit();
        await second.commit();
      } finally {
        await first.rollback().catch(() => {});
        await second.rollback().catch(() => {});
      }
    });
    const translated = translateDatabaseError(error);
    expect(translated).toBeInstanceOf(ConflictError);
    expect(translated?.headers['Retry-After']).toBe('1');
  });

  it('anything else stays unknown, for the 500 path', () => {
    expect(translateDatabaseError(new Error('boom'))).toBeUndefined();
  });
});
