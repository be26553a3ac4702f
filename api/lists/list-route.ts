import type { Context } from 'hono';
import type { EntityName, FilterQuery } from '@mikro-orm/core';
import { Type } from 'typebox';
import { contentRange } from '../../shared/platform/lists/content-range.js';
import type { ListSpec, Page } from '../../shared/platform/lists/list-spec.js';
import {
  DEFAULT_LIMIT,
  MAX_LIMIT,
  parseListQuery,
  type ListQuery,
} from '../../shared/platform/lists/parse-list-query.js';
import { entityManager, type AppEnv } from '../app-env.js';
import { answer, type Answer } from '../routes/answer.js';
import type { RequestInput } from '../routes/request-input.js';

/**
 * The list parameters of docs/api-conventions.md#lists for one endpoint: limit, skip, sort, order and filter,
 * typed once from its allow-list. The schema is what the OpenAPI document shows; the parser is
 * parseListQuery, whose answers (order taken in any case, an O-Rison filter checked field by field
 * against the allow-list) are more than a JSON Schema says.
 */
export function listQuery(spec: ListSpec): RequestInput<ListQuery> {
  const sortable = Object.entries(spec.fields)
    .filter(([, field]) => field.sortable)
    .map(([name]) => name);
  const filterable = Object.entries(spec.fields)
    .filter(([, field]) => field.filterable)
    .map(([name]) => name);
  const schema = Type.Object({
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_LIMIT,
        default: DEFAULT_LIMIT,
        description: `How many items a page holds, at most ${MAX_LIMIT}`,
      }),
    ),
    skip: Type.Optional(
      Type.Integer({ minimum: 0, default: 0, description: 'How many items to pass over before the page starts' }),
    ),
    sort: Type.Optional(
      Type.String({ enum: sortable, default: spec.defaultSort, description: 'The field the items are ordered by' }),
    ),
    order: Type.Optional(
      Type.String({
        enum: ['ASC', 'DESC'],
        default: 'DESC',
        description: '`ASC` (oldest or smallest first) or `DESC`; taken in any case',
      }),
    ),
    filter: Type.Optional(
      Type.String({
        description:
          `O-Rison conditions that every item must meet, e.g. \`${filterable[0] ?? 'field'}:(eq:'X')\`. ` +
          `Operators: eq, neq, gt, lt, in, has, like. Fields: ${filterable.join(', ')}`,
      }),
    ),
  });
  return { schema, parse: (raw) => parseListQuery(raw, spec) };
}

/** How a list route's description ends: the paging its query takes, and how the answer says where the page sits. */
export const LIST_PAGE =
  'A page of the list: `limit`, `skip`, `sort`, `order` and an O-Rison `filter` over the fields named below; `Content-Range` says where the page sits in the whole.';

/**
 * The one list helper (docs/api-conventions.md#lists and #filters): always adds the tenant to the WHERE clause, answers
 * the page with `Content-Range`. `scope` narrows further (for example to events with points);
 * `populate` loads the relations the view shows.
 */
export function listPage<Entity extends object, View>(
  c: Context<AppEnv>,
  entity: EntityName<Entity>,
  spec: ListSpec,
  query: ListQuery,
  view: (record: Entity) => View,
  options: { scope?: FilterQuery<Entity>; populate?: string[] } = {},
): Promise<Answer<View[]>> {
  return listPageViewed(c, entity, spec, query, (records) => Promise.resolve(records.map(view)), options);
}

/** listPage, for views that read more for the whole page at once (memberViews). */
export async function listPageViewed<Entity extends object, View>(
  c: Context<AppEnv>,
  entity: EntityName<Entity>,
  spec: ListSpec,
  query: ListQuery,
  views: (records: Entity[]) => Promise<View[]>,
  options: { scope?: FilterQuery<Entity>; populate?: string[] } = {},
): Promise<Answer<View[]>> {
  const where = { $and: [{ tenant: c.var.tenant.id }, options.scope ?? {}, query.where] } as FilterQuery<Entity>;
  const [records, total] = await entityManager(c).findAndCount(entity, where, {
    limit: query.limit,
    offset: query.offset,
    orderBy: query.orderBy as never,
    populate: (options.populate ?? []) as never,
  });
  return pageAnswer(spec, query, { items: await views(records), total });
}

/**
 * A page as a list answers it (a feature's own query too: a member's points history, its consents,
 * the rules of a set): its items, and `Content-Range` for where they sit in the whole.
 */
export function pageAnswer<View>(spec: ListSpec, query: ListQuery, page: Page<View>): Answer<View[]> {
  return answer(page.items, {
    headers: { 'Content-Range': contentRange(spec.resource, query.offset, page.items.length, page.total) },
  });
}
