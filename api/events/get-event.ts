import type { AppContext } from '../../shared/context.js';
import { NotFoundError } from '../../shared/platform/errors/app-errors.js';
import { Event } from '../../shared/events/event.entity.js';
import { storedEventView } from '../../shared/events/event-view.js';
import { entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { EVENT_EXAMPLE, EventResource, EventIdParams, tags } from './schema.js';

export function registerGetEvent(app: App, context: AppContext): void {
  const serviceSubject = context.config.publicBaseUrl;
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/events/:id{[0-9]+}',
    operationId: 'getEvent',
    description:
      'One registered event, with its type and subject. An event accepted but not registered yet is 404 for now; `GET /v1/events/{id}/reactions` waits for it.',
    examples: { response: EVENT_EXAMPLE },
    summary: 'Read a registered event',
    tags,
    access: { admin: 'admin:events' },
    params: EventIdParams,
    responses: { 200: { description: 'the event', data: EventResource } },
    errors: [404],
    handler: async ({ params }, c) => {
      const event = await entityManager(c).findOne(
        Event,
        { tenant: c.var.tenant.id, id: params.id },
        { populate: ['type', 'user'] },
      );
      if (!event) throw new NotFoundError(`No registered event ${params.id}`);
      return storedEventView(event, serviceSubject);
    },
  });
}
