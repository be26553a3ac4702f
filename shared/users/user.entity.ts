import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantOwned } from '../tenants/tenant-owned.js';
import { timestampProperties } from '../platform/db/timestamp-properties.js';

export type Profile = Record<string, unknown>;

/** A loyalty member (docs/users.md#members). */
export const User = defineEntity({
  name: 'User',
  tableName: 'member',
  uniques: [{ properties: ['tenant', 'authIdentifier'] }, { properties: ['tenant', 'accountNumber'] }],
  indexes: [
    { properties: ['tenant', 'createdAt'] },
    // The duplicate-contact check of registration and PATCH looks members up by these (emails whatever their case).
    {
      name: 'member_tenant_id_email_index',
      expression: `create index "member_tenant_id_email_index" on "member" ("tenant_id", lower("profile"->>'emailAddress'))`,
    },
    {
      name: 'member_tenant_id_telephone_index',
      expression: `create index "member_tenant_id_telephone_index" on "member" ("tenant_id", ("profile"->>'telephoneNumber'))`,
    },
  ],
  properties: {
    ...tenantOwned(),
    accountNumber: p.integer(),
    authIdentifier: p.string().length(256),
    externalIdentifier: p.string().length(256).nullable(),
    isRestricted: p.boolean(),
    profile: p.json<Profile>(),
    flags: p.json<Record<string, unknown>>().nullable(),
    linkedVenues: p.json<{ id: string }[]>(),
    /** docs/users.md#fingerprint: given at registration, removed by erasure. */
    fingerprint: p.string().length(32).nullable(),
    /** Set when the profile was erased (DELETE): ids, account number, events and ledger stay. */
    erasedAt: p.datetime().nullable(),
    ...timestampProperties(),
  },
});

export type User = InferEntity<typeof User>;
