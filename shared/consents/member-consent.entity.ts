import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Tenant } from '../tenants/tenant.entity.js';
import { User } from '../users/user.entity.js';
import { ConsentType } from './consent-type.entity.js';

/**
 * A member's consents, append-only (docs/consents.md#a-members-consents): each row is one answer
 * the member gave to one consent type, with the exact text shown. The latest row of a member and a
 * type is its current consent; the ids come from a sequence, and a member's answers are written one
 * after another (its row is locked), so the highest id is the latest.
 */
export const MemberConsent = defineEntity({
  name: 'MemberConsent',
  tableName: 'member_consent',
  indexes: [
    // The current consents of a page of members: the latest row per member and type.
    {
      name: 'member_consent_current_index',
      expression: `create index "member_consent_current_index" on "member_consent" ("tenant_id", "member_id", "consent_type_id", "id" desc)`,
    },
  ],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    tenant: p.manyToOne(Tenant).deleteRule('cascade'),
    member: p.manyToOne(User).deleteRule('cascade'),
    consentType: p.manyToOne(ConsentType),
    version: p.integer(),
    /** The locale of `description`, one of the keys of the version's text; kept on erasure. */
    locale: p.string(),
    /** The locale the member asked for, when it asked; `locale` differs when the text fell back. Null once the member is erased. */
    requestedLocale: p.string().nullable(),
    /** The exact text shown; null once the member is erased. */
    description: p.text().nullable(),
    checked: p.boolean(),
    givenAt: p.datetime(),
  },
});

export type MemberConsent = InferEntity<typeof MemberConsent>;
