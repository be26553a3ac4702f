import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECEIPT_REVIEWED } from '../../shared/kernel/system-event-names.js';
import { SYSTEM_EVENT_TYPES } from '../../shared/event-types/system-event-types.js';
import { createHarness, queryOne, type Harness, type Json } from '../support/harness.js';

let harness: Harness;
beforeAll(async () => {
  harness = await createHarness();
});
afterAll(() => harness.close());

const MIGRATION = 'Migration20261128115000';
const SCHEMA = SYSTEM_EVENT_TYPES.find(({ name }) => name === RECEIPT_REVIEWED)!.schema as {
  properties: Record<string, unknown>;
};

/** The schema a tenant's copy was made with, without the properties its payload gained later. */
function schemaWithout(...names: string[]): Json {
  const properties = Object.fromEntries(Object.entries(SCHEMA.properties).filter(([name]) => !names.includes(name)));
  return { ...SCHEMA, properties };
}

const schemaOf = async (tenantId: string) =>
  (
    await queryOne(harness, `select schema from event_type where tenant_id = ? and name = ?`, [
      tenantId,
      RECEIPT_REVIEWED,
    ])
  ).schema;

const setSchema = (tenantId: string, schema: Json) =>
  harness.context.orm.em
    .getConnection()
    .execute(`update event_type set schema = ?::jsonb where tenant_id = ? and name = ?`, [
      JSON.stringify(schema),
      tenantId,
      RECEIPT_REVIEWED,
    ]);

// docs/events.md#system-event-types: RECEIPT_REVIEWED's payload is "{receiptId, status, verdict, reason, total,
// subtotal, correctedTotal, currency, …}"; "a tenant created before a type was added to this list got it when the
// platform was upgraded", and so do the properties a type's payload gained.
describe("RECEIPT_REVIEWED's schema in tenants created before its payload gained currency and correctedTotal", () => {
  it('gains them from the migration; a property the copy already has, changed by its admin or not, stays', async () => {
    const beforeCurrency = await harness.createTenant();
    const beforeCorrection = await harness.createTenant();
    const customised = await harness.createTenant();
    const current = await harness.createTenant();
    await harness.context.orm.getMigrator().down({ to: MIGRATION });
    await setSchema(beforeCurrency.id, schemaWithout('currency', 'correctedTotal'));
    await setSchema(beforeCorrection.id, schemaWithout('correctedTotal'));
    const ownCurrency = { type: 'string', pattern: '^[A-Z]{3}$' };
    await setSchema(customised.id, {
      ...schemaWithout('correctedTotal'),
      properties: { ...schemaWithout('correctedTotal').properties, currency: ownCurrency },
    });
    const untouched = await queryOne(harness, `select updated_at from event_type where tenant_id = ? and name = ?`, [
      current.id,
      RECEIPT_REVIEWED,
    ]);

    await harness.context.orm.getMigrator().up();

    expect(await schemaOf(beforeCurrency.id)).toEqual(SCHEMA);
    expect(await schemaOf(beforeCorrection.id)).toEqual(SCHEMA);
    expect(await schemaOf(customised.id)).toEqual({
      ...SCHEMA,
      properties: { ...SCHEMA.properties, currency: ownCurrency },
    });
    expect(await schemaOf(current.id)).toEqual(SCHEMA);
    expect(
      await queryOne(harness, `select updated_at from event_type where tenant_id = ? and name = ?`, [
        current.id,
        RECEIPT_REVIEWED,
      ]),
    ).toEqual(untouched);
  });
});

// Issue 32: the receipt keeps the merchant's legal name, and RECEIPT_REVIEWED carries it beside merchantName
// (docs/events.md#system-event-types); "a payload's new property is added to the copies of tenants created before it
// the same way … a property a copy already has, as its admin changed it or not, stays as it is".
describe('the migration that keeps the legal name on the receipt', () => {
  it("adds the receipt's column, empty, and merchantLegalName to RECEIPT_REVIEWED's copies that lack it", async () => {
    const before = await harness.createTenant();
    const customised = await harness.createTenant();
    await harness.context.orm.getMigrator().down({ to: 'Migration20261128115000' });
    const legalNameColumns = async () =>
      (
        await queryOne(
          harness,
          `select count(*)::int as count from information_schema.columns
            where table_name = 'receipt' and column_name = 'merchant_legal_name'`,
        )
      ).count;
    expect(await legalNameColumns()).toBe(0);
    await setSchema(before.id, schemaWithout('merchantLegalName'));
    const ownLegalName = { type: 'string', maxLength: 120 };
    await setSchema(customised.id, {
      ...SCHEMA,
      properties: { ...SCHEMA.properties, merchantLegalName: ownLegalName },
    });

    await harness.context.orm.getMigrator().up();

    expect(await legalNameColumns()).toBe(1);
    expect(await schemaOf(before.id)).toEqual(SCHEMA);
    expect(await schemaOf(customised.id)).toEqual({
      ...SCHEMA,
      properties: { ...SCHEMA.properties, merchantLegalName: ownLegalName },
    });
  });
});
