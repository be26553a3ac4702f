import type { EntityName, FilterQuery } from '@mikro-orm/core';
import { NotFoundError } from '../errors/app-errors.js';
import type { EntityManager } from './orm.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** PostgreSQL refuses anything but a UUID in a uuid column with an error: such an id names nothing. */
export function isUuid(id: string): boolean {
  return UUID.test(id);
}

/**
 * The tenant's record of `entity` with this id, its `populate` relations loaded, or 404 naming it
 * (`No product "…"`). Another tenant's record is not found either, so its existence is not revealed.
 */
export async function findTenantRecord<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  tenantId: string,
  id: string,
  what: string,
  populate: string[] = [],
): Promise<T> {
  const record = isUuid(id)
    ? await em.findOne(entity, { tenant: tenantId, id } as FilterQuery<T>, { populate: populate as never })
    : null;
  if (!record) throw new NotFoundError(`No ${what} "${id}"`);
  return record as T;
}
