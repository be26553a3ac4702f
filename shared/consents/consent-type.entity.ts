import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantOwned } from '../tenants/tenant-owned.js';
import { timestampProperties } from '../platform/db/timestamp-properties.js';

/** A consent's text in each locale it is written in: `{en: '…', 'fr-CA': '…'}`. */
export type ConsentDescriptions = Record<string, string>;

/**
 * Something a member may consent to (docs/consents.md#consent-types): its text per locale, and the
 * version of that text, raised whenever the text changes.
 */
export const ConsentType = defineEntity({
  name: 'ConsentType',
  tableName: 'consent_type',
  uniques: [{ properties: ['tenant', 'name'] }],
  indexes: [{ properties: ['tenant', 'createdAt'] }],
  properties: {
    ...tenantOwned(),
    name: p.string(),
    /** A member cannot register without giving it (it may still be withdrawn later). */
    required: p.boolean(),
    defaultLocale: p.string(),
    descriptions: p.json<ConsentDescriptions>(),
    version: p.integer(),
    ...timestampProperties(),
  },
});

export type ConsentType = InferEntity<typeof ConsentType>;

/**
 * The text of every version a consent type ever had, kept for good: what a member agreed to can
 * be shown even after the member's own copy of it is erased (docs/consents.md#erasure).
 */
export const ConsentTypeVersion = defineEntity({
  name: 'ConsentTypeVersion',
  tableName: 'consent_type_version',
  uniques: [{ properties: ['consentType', 'version'] }],
  properties: {
    ...tenantOwned(),
    consentType: p.manyToOne(ConsentType),
    version: p.integer(),
    defaultLocale: p.string(),
    descriptions: p.json<ConsentDescriptions>(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export type ConsentTypeVersion = InferEntity<typeof ConsentTypeVersion>;
