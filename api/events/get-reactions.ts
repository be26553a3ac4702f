import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { fieldError, NotFoundError } from '../../shared/platform/errors/app-errors.js';
import type { Event } from '../../shared/events/event.entity.js';
import { eventJobId, jobEvents } from '../../shared/events/event-job.js';
import { reactionView } from '../../shared/events/event-view.js';
import type { App } from '../app-env.js';
import { answer } from '../routes/answer.js';
import { defineRoute } from '../routes/define-route.js';
import type { RequestInput } from '../routes/request-input.js';
import { EventIdParams, ReactionResult, REACTIONS_EXAMPLE, tags } from './schema.js';

const DEFAULT_WAIT_MS = 5000;
const MAX_WAIT_MS = 30_000;

const WaitQuery: RequestInput<{ wait: number }> = {
  schema: Type.Object({
    wait: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_WAIT_MS,
        default: DEFAULT_WAIT_MS,
        description: 'How long to wait for the event to be registered, in milliseconds; 0 answers at once',
      }),
    ),
  }),
  parse: (raw) => {
    if (raw.wait === undefined) return { wait: DEFAULT_WAIT_MS };
    const wait = Number(raw.wait);
    if (!/^\d+$/.test(raw.wait) || wait > MAX_WAIT_MS) {
      throw fieldError('wait', raw.wait, 'max', `wait must be a whole number of milliseconds up to ${MAX_WAIT_MS}`);
    }
    return { wait };
  },
};

// docs/events.md#waiting-for-reactions: waits for registration up to `wait` ms: 200 once registered, 202 still pending, 404 never accepted.
export function registerGetReactions(app: App, context: AppContext): void {
  const reactions = (event: Event) => ({
    totalPoints: event.totalPoints,
    reactions: event.reactions.map(reactionView),
  });
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/events/:id{[0-9]+}/reactions',
    operationId: 'getEventReactions',
    description:
      'What an event triggered: the points granted and each reaction. Waits up to `wait` milliseconds for the event to be registered: 200 once it is (at once if it already is), 202 with `pending: true` if it is still waiting at the deadline (ask again), 404 for an id this tenant never had accepted. Needs the API key only.',
    examples: { response: REACTIONS_EXAMPLE },
    summary: 'The reactions an event triggered, waiting for its registration',
    tags,
    access: 'apiKey',
    params: EventIdParams,
    query: WaitQuery,
    responses: {
      200: { description: 'registered', data: ReactionResult },
      202: {
        description: 'accepted but not registered yet: `{totalPoints: 0, reactions: [], pending: true}`',
        data: ReactionResult,
      },
    },
    errors: [400, 404],
    handler: async ({ params: { id }, query: { wait } }, c) => {
      const tenantId = c.var.tenant.id;
      const watch = context.registrationWatch;
      if (!(await isAccepted(context, tenantId, id))) {
        // The worker forgets an event once it is registered: registered, or never accepted.
        const registered = await watch.registered(tenantId, id);
        if (registered) return reactions(registered);
        throw new NotFoundError(`No event ${id} was accepted`);
      }
      const event = await watch.waitFor(tenantId, id, wait);
      return event ? reactions(event) : answer({ totalPoints: 0, reactions: [], pending: true }, { status: 202 });
    },
  });
}

/** A tenant's report still in the acceptance record, or an intrinsic event's job still queued. */
async function isAccepted(context: AppContext, tenantId: string, id: number): Promise<boolean> {
  if (await context.acceptedReports.isPending(tenantId, id)) return true;
  const job = await context.queues.events.getJob(eventJobId(id));
  return job !== undefined && jobEvents(job.data).events[0]?.tenantId === tenantId;
}
