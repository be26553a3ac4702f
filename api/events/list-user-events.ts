import type { AppContext } from '../../shared/context.js';
import type { App } from '../app-env.js';
import { defineMemberRoute, memberOf } from '../routes/member-target.js';
import { EVENT_PAGE, eventListQuery, eventsPage } from './list-events.js';
import { EVENT_EXAMPLE, tags } from './schema.js';

const PAGE =
  'Newest first, as `GET /v1/events` lists them, with its `limit`, `skip`, `sort`, `order`, `filter` and `pointsOnlyEvents`; `Content-Range: event a-b/n`.';

/**
 * decisions §14: the events whose subject is the member. The member's own read leaves out the
 * types with `omitFromUserActivity` (rewards-interface: "for user-authorized reads, decides
 * whether events of this type appear in user activity; ignored for admin reads").
 */
export function registerListUserEvents(app: App, context: AppContext): void {
  defineMemberRoute(app, context, {
    resource: 'events',
    own: {
      summary: 'The activity of the member the user token speaks for',
      operationId: 'listOwnEvents',
      description: `The registered events whose subject is the member of the user token, but for those of types with \`omitFromUserActivity: true\`. ${PAGE}`,
    },
    anyMember: {
      summary: "A member's events",
      operationId: 'listUserEvents',
      description: `The registered events whose subject is the member, found by its id, \`authIdentifier\` or account number; every type, \`omitFromUserActivity\` or not. ${PAGE}`,
    },
    method: 'get',
    examples: { response: [EVENT_EXAMPLE] },
    tags,
    query: eventListQuery(),
    responses: { 200: EVENT_PAGE },
    errors: [400, 404],
    handler: async ({ query }, c) => {
      const member = await memberOf(c);
      const ownActivity = c.var.principal?.kind === 'user';
      return eventsPage(context, c, query, {
        user: member.id,
        ...(ownActivity ? { type: { omitFromUserActivity: false } } : {}),
      });
    },
  });
}
