import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { fieldError, NotFoundError } from '../../shared/platform/errors/app-errors.js';
import { Event } from '../../shared/events/event.entity.js';
import { eventJobId, jobEvents } from '../../shared/events/event-job.js';
import { reactionView, storedEventView } from '../../shared/events/event-view.js';
import type { ListSpec } from '../../shared/platform/lists/list-spec.js';
import { entityManager, type App } from '../app-env.js';
import { listParameters, listResponse } from '../lists/list-route.js';
import { authorize } from '../middleware/authorize.js';
import { describe } from '../openapi/describe.js';
import { EventIdParameter, EventResource, ReactionResult } from './schema.js';

const EVENT_LIST: ListSpec = {
  resource: 'event',
  defaultSort: 'reportedAt',
  fields: {
    id: { type: 'number', filterable: true, sortable: true },
    reportedAt: { type: 'datetime', filterable: true, sortable: true },
    occurredAt: { type: 'datetime', filterable: true, sortable: true },
    registeredAt: { type: 'datetime', filterable: true, sortable: true },
    reactedAt: { type: 'datetime', filterable: true, sortable: true },
    'type.name': { type: 'string', filterable: true },
    'subject.id': { type: 'uuid', path: 'user.id', filterable: true },
    'subject.authIdentifier': { type: 'string', path: 'user.authIdentifier', filterable: true },
    'subject.accountNumber': { type: 'number', path: 'user.accountNumber', filterable: true },
  },
};

const DEFAULT_WAIT_MS = 5000;
const MAX_WAIT_MS = 30_000;

export function registerReadEvents(app: App, context: AppContext): void {
  const access = { admin: 'admin:events' } as const;
  const serviceSubject = context.config.publicBaseUrl;
  const view = (event: Event) => storedEventView(event, serviceSubject);

  // rewards-interface.md: GET /events lists registered events; pointsOnlyEvents keeps those with points.
  app.get(
    '/v1/events',
    describe({
      summary: 'List registered events',
      tags: ['Events'],
      access,
      parameters: [...listParameters(EVENT_LIST), { name: 'pointsOnlyEvents', in: 'query', schema: { type: 'boolean' } }],
      responses: { 200: { description: 'a page of events; see Content-Range', data: Type.Array(EventResource) } },
      errors: [400],
    }),
    authorize(context, access),
    (c) => {
      const pointsOnly = booleanQuery('pointsOnlyEvents', c.req.query('pointsOnlyEvents'));
      return listResponse(c, Event, EVENT_LIST, view, { scope: pointsOnly ? { totalPoints: { $gt: 0 } } : {}, populate: ['type', 'user'] });
    },
  );

  app.get(
    '/v1/events/:id{[0-9]+}',
    describe({ summary: 'Read a registered event', tags: ['Events'], access, parameters: [EventIdParameter], responses: { 200: { description: 'the event', data: EventResource } }, errors: [404] }),
    authorize(context, access),
    async (c) => {
      const id = eventIdOf(c.req.param('id'));
      const event = id === undefined ? null : await entityManager(c).findOne(Event, { tenant: c.var.tenant.id, id }, { populate: ['type', 'user'] });
      if (!event) throw new NotFoundError(`No registered event ${c.req.param('id')}`);
      return c.json({ status: 'success', data: view(event) });
    },
  );

  // decisions.md §5: waits for registration up to `wait` ms: 200 once registered, 202 still pending, 404 never accepted.
  app.get(
    '/v1/events/:id{[0-9]+}/reactions',
    describe({
      summary: 'The reactions an event triggered, waiting for its registration',
      tags: ['Events'],
      access: 'apiKey',
      parameters: [EventIdParameter, { name: 'wait', in: 'query', schema: { type: 'integer', minimum: 0, maximum: MAX_WAIT_MS, default: DEFAULT_WAIT_MS } }],
      responses: {
        200: { description: 'registered', data: ReactionResult },
        202: { description: 'accepted but not registered yet: `{totalPoints: 0, reactions: [], pending: true}`', data: ReactionResult },
      },
      errors: [400, 404],
    }),
    async (c) => {
      const id = eventIdOf(c.req.param('id'));
      if (id === undefined) throw new NotFoundError(`No event ${c.req.param('id')} was accepted`);
      const tenantId = c.var.tenant.id;
      const wait = waitOf(c.req.query('wait'));
      const answer = (event: Event) => c.json({ status: 'success', data: { totalPoints: event.totalPoints, reactions: event.reactions.map(reactionView) } });
      const watch = context.registrationWatch;
      if (!(await isAccepted(context, tenantId, id))) {
        // The worker forgets an event once it is registered: registered, or never accepted.
        const registered = await watch.registered(tenantId, id);
        if (registered) return answer(registered);
        throw new NotFoundError(`No event ${id} was accepted`);
      }
      const event = await watch.waitFor(tenantId, id, wait);
      return event ? answer(event) : c.json({ status: 'success', data: { totalPoints: 0, reactions: [], pending: true } }, 202);
    },
  );
}

/** The path's event id; undefined for digits no event id can be (beyond a JavaScript number's exact integers, and PostgreSQL's bigint). */
function eventIdOf(digits: string): number | undefined {
  const id = Number(digits);
  return Number.isSafeInteger(id) ? id : undefined;
}

/** A tenant's report still in the acceptance record, or an intrinsic event's job still queued. */
async function isAccepted(context: AppContext, tenantId: string, id: number): Promise<boolean> {
  if (await context.acceptedReports.isPending(tenantId, id)) return true;
  const job = await context.queues.events.getJob(eventJobId(id));
  return job !== undefined && jobEvents(job.data).events[0]?.tenantId === tenantId;
}

function booleanQuery(name: string, raw: string | undefined): boolean {
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  throw fieldError(name, raw, 'isBoolean', `${name} must be true or false`);
}

function waitOf(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_WAIT_MS;
  const wait = Number(raw);
  if (!/^\d+$/.test(raw) || wait > MAX_WAIT_MS) {
    throw fieldError('wait', raw, 'max', `wait must be a whole number of milliseconds up to ${MAX_WAIT_MS}`);
  }
  return wait;
}
