import type { Context } from 'hono';
import type { EntityName, FilterQuery } from '@mikro-orm/core';
import { contentRange } from '../../shared/platform/lists/content-range.js';
import type { ListSpec } from '../../shared/platform/lists/list-spec.js';
import { parseListQuery } from '../../shared/platform/lists/parse-list-query.js';
import { entityManager, type AppEnv } from '../app-env.js';

/**
 * The one list helper (decisions.md §3, §4): reads limit, skip, sort, order and filter against the
 * endpoint's allow-list, always adds the tenant to the WHERE clause, answers the page with
 * `Content-Range`. `scope` narrows further (for example to events with points); `populate` loads
 * the relations the view shows.
 */
export async function listResponse<Entity extends object, View>(
  c: Context<AppEnv>,
  entity: EntityName<Entity>,
  spec: ListSpec,
  view: (record: Entity) => View,
  options: { scope?: FilterQuery<Entity>; populate?: string[] } = {},
): Promise<Response> {
  const query = parseListQuery(c.req.query(), spec);
  const where = { $and: [{ tenant: c.var.tenant.id }, options.scope ?? {}, query.where] } as FilterQuery<Entity>;
  const [records, total] = await entityManager(c).findAndCount(entity, where, {
    limit: query.limit,
    offset: query.offset,
    orderBy: query.orderBy as never,
    populate: (options.populate ?? []) as never,
  });
  c.header('Content-Range', contentRange(spec.resource, query.offset, records.length, total));
  return c.json({ status: 'success', data: records.map(view) });
}

/** The OpenAPI parameters every list shares, naming the endpoint's sortable and filterable fields. */
export function listParameters(spec: ListSpec): object[] {
  const sortable = Object.entries(spec.fields).filter(([, field]) => field.sortable).map(([name]) => name);
  const filterable = Object.entries(spec.fields).filter(([, field]) => field.filterable).map(([name]) => name);
  return [
    { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000, default: 10 } },
    { name: 'skip', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
    { name: 'sort', in: 'query', schema: { type: 'string', enum: sortable, default: spec.defaultSort } },
    { name: 'order', in: 'query', schema: { type: 'string', enum: ['ASC', 'DESC'], default: 'DESC' } },
    {
      name: 'filter',
      in: 'query',
      description: `O-Rison filter, e.g. name:(eq:'X'). Operators: eq neq gt lt in has like. Fields: ${filterable.join(', ')}`,
      schema: { type: 'string' },
    },
  ];
}
