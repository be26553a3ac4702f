import type { EntityName } from '@mikro-orm/core';
import { Type, type Static, type TObject, type TSchema, type TString } from 'typebox';
import type { ChangedBy } from '../../shared/audit/audited-resource-change.js';
import type { AppContext } from '../../shared/context.js';
import type { EntityManager } from '../../shared/platform/db/orm.js';
import type { ListSpec } from '../../shared/platform/lists/list-spec.js';
import type { ListQuery } from '../../shared/platform/lists/parse-list-query.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { LIST_PAGE, listPage, listQuery } from '../lists/list-route.js';
import type { Access } from '../middleware/authorize.js';
import { createsRecordOf } from '../middleware/idempotency.js';
import { Deleted, DELETED_ONE } from './answer.js';
import type { DeclaredOnly } from '../../shared/platform/validation/declared-fields.js';
import { registerRoute } from './define-route.js';

/** What every route of one of the tenant's collections (`/v1/products`, `/v1/products/{id}`) shares. */
interface Collection<Entity extends object, Resource extends TSchema, View> {
  /** The collection's path; one record's is `<path>/:id`. */
  path: string;
  /**
   * The record in words, singular (`rule set`): the answers' descriptions say "the rule set" and "a
   * page of rule sets", the operationIds are `createRuleSet`, `listRuleSets`, `getRuleSet`, …
   */
  noun: string;
  /** The noun's plural, where adding an `s` does not make it. */
  plural?: string;
  entity: EntityName<Entity>;
  /** The answer's schema, and how a record is shown in it. */
  resource: Resource;
  view: (record: Entity) => View;
  /** The document's example of one record, as every answer shows it. */
  example: Static<Resource>;
  /** The `:id` of a record's path, with its description and example. */
  params: TObject<{ id: TString }>;
  tags: string[];
  access: Access;
}

/** What one route says of itself, where it says more than its collection's words. */
interface RouteText {
  summary?: string;
  description?: string;
  /** The success answer's description, where not the usual ("the product", "a page of products"). */
  answer?: string;
  access?: 'apiKey' | Access;
  errors?: number[];
}

type Change = [context: AppContext, em: EntityManager, by: ChangedBy];

type AnyRoute = Parameters<typeof registerRoute>[2];

/** What a route of the collection usually is and says, unless the route says otherwise. */
interface Usual {
  verb: 'create' | 'list' | 'get' | 'update' | 'delete';
  method: AnyRoute['method'];
  /** At one record's path, `<path>/:id`, rather than the collection's. */
  one?: boolean;
  summary: string;
  description: string;
  /** The success answer's description, its status (200 unless said) and schema (the resource unless said). */
  answer: string;
  status?: 200 | 201;
  data?: TSchema;
  errors: number[];
}

/** What each route of a collection declares for itself. */
type OwnParts = Pick<AnyRoute, 'examples' | 'handler'> & Partial<Pick<AnyRoute, 'body' | 'query' | 'idempotency'>>;

interface CreateRoute<Entity, Body extends TSchema> extends RouteText {
  summary: string;
  description: string;
  body: Body;
  request: Static<Body>;
  /** Creates the record under `id`, the uuid reserved with an Idempotency-Key (a new one without a key). */
  create: (...change: [...Change, input: Static<Body>, id?: string]) => Promise<Entity>;
}

interface ListRoute extends RouteText {
  /** What the list holds, before the paging parameters are explained. */
  description: string;
  spec: ListSpec;
  /** The relations the view shows, loaded with the page. */
  populate?: string[];
}

interface GetRoute<Entity> extends RouteText {
  find: (em: EntityManager, tenantId: string, id: string) => Promise<Entity>;
}

interface UpdateRoute<Entity, Body extends TSchema, Resource extends TSchema> extends RouteText {
  body: Body;
  examples: { request: Static<Body>; response: Static<Resource> };
  update: (...change: [...Change, id: string, changes: Static<Body>]) => Promise<Entity>;
}

interface DeleteRoute extends RouteText {
  /** What deleting the record takes with it, or leaves. */
  description: string;
  remove: (...change: [...Change, id: string]) => Promise<void>;
}

/**
 * Declares a collection's create, list, read, change and delete routes, each in one call that
 * gives only what sets it apart: its words, its example and the service function it calls. The
 * method, path, operationId, answer schema and status, the usual words, and the glue from request
 * to service to view are written here once. Routes register in the order they are declared, which
 * is the OpenAPI document's order.
 */
export function collectionRoutes<Entity extends object, const Resource extends TSchema, View extends Static<Resource>>(
  app: App,
  context: AppContext,
  collection: Collection<Entity, Resource, View> & DeclaredOnly<View, Static<Resource>>,
) {
  const { path, noun, entity, resource, view, example, params, tags } = collection;
  const plural = collection.plural ?? `${noun}s`;
  const pascal = (words: string) => words.replace(/(?:^|\s)(\w)/g, (_, letter: string) => letter.toUpperCase());
  const article = /^[aeiou]/.test(noun) ? 'an' : 'a';
  const one = `${path}/:id`;
  const change = (c: Parameters<typeof changedBy>[0]): Change => [context, entityManager(c), changedBy(c)];
  // registerRoute takes any route, so a handler's input arrives untyped: the path's one parameter is
  // `id`, as Collection's `params` declares, and the body is the route's, validated by its schema.
  const idOf = (input: { params: unknown }) => (input.params as { id: string }).id;

  /** Registers a route of the collection: what the route says of itself wins over the usual. */
  function declare(route: RouteText, usual: Usual, own: OwnParts): void {
    registerRoute(app, context, {
      method: usual.method,
      path: usual.one ? one : path,
      operationId: `${usual.verb}${pascal(usual.verb === 'list' ? plural : noun)}`,
      summary: route.summary ?? usual.summary,
      description: route.description ?? usual.description,
      tags,
      access: route.access ?? collection.access,
      ...(usual.one ? { params } : {}),
      responses: { [usual.status ?? 200]: { description: route.answer ?? usual.answer, data: usual.data ?? resource } },
      errors: route.errors ?? usual.errors,
      ...own,
    });
  }

  return {
    create<Body extends TSchema>(route: CreateRoute<Entity, Body>): void {
      declare(
        route,
        {
          verb: 'create',
          method: 'post',
          summary: route.summary,
          description: route.description,
          status: 201,
          answer: 'created',
          errors: [422],
        },
        {
          examples: { request: route.request, response: example },
          idempotency: createsRecordOf(entity, view),
          body: route.body,
          handler: async ({ body }, c) =>
            view(await route.create(...change(c), body as Static<Body>, c.var.reservedId)),
        },
      );
    },

    list(route: ListRoute): void {
      declare(
        { ...route, description: `${route.description} ${LIST_PAGE}` },
        {
          verb: 'list',
          method: 'get',
          summary: `List ${plural}`,
          description: route.description,
          answer: `a page of ${plural}`,
          data: Type.Array(resource),
          errors: [400],
        },
        {
          examples: { response: [example] },
          query: listQuery(route.spec),
          handler: ({ query }, c) =>
            listPage(c, entity, route.spec, query as ListQuery, view, { populate: route.populate }),
        },
      );
    },

    get(route: GetRoute<Entity>): void {
      declare(
        route,
        {
          verb: 'get',
          method: 'get',
          one: true,
          summary: `Read ${article} ${noun}`,
          description: `One ${noun} by its id.`,
          answer: `the ${noun}`,
          errors: [404],
        },
        {
          examples: { response: example },
          handler: async (input, c) => view(await route.find(entityManager(c), c.var.tenant.id, idOf(input))),
        },
      );
    },

    update<Body extends TSchema>(route: UpdateRoute<Entity, Body, Resource>): void {
      declare(
        route,
        {
          verb: 'update',
          method: 'patch',
          one: true,
          summary: `Change ${article} ${noun}`,
          description: 'Changes the fields given; the others keep their values.',
          answer: `the changed ${noun}`,
          errors: [404],
        },
        {
          examples: route.examples,
          body: route.body,
          handler: async (input, c) => view(await route.update(...change(c), idOf(input), input.body as Static<Body>)),
        },
      );
    },

    delete(route: DeleteRoute): void {
      declare(
        route,
        {
          verb: 'delete',
          method: 'delete',
          one: true,
          summary: `Delete ${article} ${noun}`,
          description: route.description,
          answer: 'deleted',
          data: Deleted,
          errors: [404],
        },
        {
          examples: { response: DELETED_ONE },
          handler: async (input, c) => {
            await route.remove(...change(c), idOf(input));
            return DELETED_ONE;
          },
        },
      );
    },
  };
}
