import { LockMode } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { AuditDependencies } from '../audit/audit-log.js';
import { auditedResourceChange, type ChangedBy } from '../audit/audited-resource-change.js';
import type { EntityManager } from '../platform/db/orm.js';
import { copyWritableFields } from '../platform/db/copy-writable-fields.js';
import { findTenantRecord, isUuid } from '../platform/db/tenant-record.js';
import { fieldError, NotFoundError } from '../platform/errors/app-errors.js';
import { ConsentType, ConsentTypeVersion, type ConsentDescriptions } from './consent-type.entity.js';

export interface ConsentTypeInput {
  name: string;
  required: boolean;
  defaultLocale: string;
  descriptions: ConsentDescriptions;
}

export function consentTypeView(type: ConsentType) {
  return {
    id: type.id,
    name: type.name,
    required: type.required,
    defaultLocale: type.defaultLocale,
    descriptions: type.descriptions,
    version: type.version,
    createdAt: type.createdAt.toISOString(),
    updatedAt: type.updatedAt.toISOString(),
  };
}

const CONSENT_TYPE = { resourceType: 'consent_type' };

/** A new consent type, at version 1, its text kept as that version's. */
export async function createConsentType(
  deps: AuditDependencies,
  em: EntityManager,
  by: ChangedBy,
  input: ConsentTypeInput,
  id: string = randomUUID(),
): Promise<ConsentType> {
  const defaultLocale = describedLocale(input.descriptions, input.defaultLocale);
  return auditedResourceChange(deps, em, by, CONSENT_TYPE, async (tx) => {
    const type = tx.create(ConsentType, {
      id,
      tenant: by.tenantId,
      name: input.name,
      required: input.required,
      defaultLocale,
      descriptions: input.descriptions,
      version: 1,
    });
    keepVersion(tx, type);
    await tx.flush();
    return { result: type, resourceId: id, before: null, after: consentTypeView(type) };
  });
}

export function findConsentType(em: EntityManager, tenantId: string, id: string): Promise<ConsentType> {
  return findTenantRecord(em, ConsentType, tenantId, id, 'consent type');
}

/**
 * Changes the fields given. New text (`descriptions`, or another `defaultLocale`) is a new version:
 * members who consented keep the version they saw. The type's row is locked, so two changes made
 * at once take one version each.
 */
export async function updateConsentType(
  deps: AuditDependencies,
  em: EntityManager,
  by: ChangedBy,
  id: string,
  changes: Partial<ConsentTypeInput>,
): Promise<ConsentType> {
  return auditedResourceChange(deps, em, by, CONSENT_TYPE, async (tx) => {
    const type = isUuid(id)
      ? await tx.findOne(ConsentType, { tenant: by.tenantId, id }, { lockMode: LockMode.PESSIMISTIC_WRITE })
      : null;
    if (!type) throw new NotFoundError(`No consent type "${id}"`);
    const before = consentTypeView(type);
    const descriptions = changes.descriptions ?? type.descriptions;
    const defaultLocale = describedLocale(descriptions, changes.defaultLocale ?? type.defaultLocale);
    const newText = defaultLocale !== type.defaultLocale || !sameDescriptions(descriptions, type.descriptions);
    copyWritableFields(type, changes, ['name', 'required', 'descriptions']);
    type.defaultLocale = defaultLocale;
    if (newText) {
      type.version += 1;
      keepVersion(tx, type);
    }
    await tx.flush();
    return { result: type, resourceId: type.id, before, after: consentTypeView(type) };
  });
}

function keepVersion(tx: EntityManager, type: ConsentType): void {
  tx.create(ConsentTypeVersion, {
    id: randomUUID(),
    tenant: type.tenant,
    consentType: type,
    version: type.version,
    defaultLocale: type.defaultLocale,
    descriptions: type.descriptions,
  });
}

/**
 * The default locale as the key of `descriptions` spells it (`EN` given, `en` written): it must be
 * written, as it is what every other locale falls back to. A locale is written once: `en-GB` and
 * `en-gb` are the same tag.
 */
function describedLocale(descriptions: ConsentDescriptions, defaultLocale: string): string {
  const described = Object.keys(descriptions).find((locale) => locale.toLowerCase() === defaultLocale.toLowerCase());
  if (described === undefined) {
    throw fieldError(
      'defaultLocale',
      defaultLocale,
      'isDescribed',
      `defaultLocale "${defaultLocale}" must be one of the locales of descriptions (${Object.keys(descriptions).join(', ')})`,
    );
  }
  const seen = new Map<string, string>();
  for (const locale of Object.keys(descriptions)) {
    const same = seen.get(locale.toLowerCase());
    if (same)
      throw fieldError(
        'descriptions',
        locale,
        'uniqueLocales',
        `descriptions has ${same} and ${locale}: one locale twice`,
      );
    seen.set(locale.toLowerCase(), locale);
  }
  return described;
}

function sameDescriptions(a: ConsentDescriptions, b: ConsentDescriptions): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key]);
}
