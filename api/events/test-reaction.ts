import type { AppContext } from '../../shared/context.js';
import { reactionView } from '../../shared/events/event-view.js';
import { testReaction } from '../../shared/events/test-reaction.js';
import type { App } from '../app-env.js';
import { bodyLimit, EVENT_BODY_LIMIT } from '../middleware/body-limit.js';
import { authorize } from '../middleware/authorize.js';
import { describe } from '../openapi/describe.js';
import { jsonBody } from '../validation/json-body.js';
import { ReportEventBody, TestReactionResult } from './schema.js';

export function registerTestReaction(app: App, context: AppContext): void {
  const access = { admin: 'admin:events' } as const;
  const dependencies = { eventTypes: context.eventTypes, subjects: context.subjects, reactors: context.reactors, serviceSubject: context.config.publicBaseUrl };
  app.post(
    '/v1/events/test_reaction',
    describe({
      summary: 'The reactions an event would trigger, without reporting it',
      tags: ['Events'],
      access,
      body: ReportEventBody,
      responses: { 200: { description: 'what would happen', data: TestReactionResult } },
      errors: [404],
    }),
    authorize(context, access),
    bodyLimit(EVENT_BODY_LIMIT),
    jsonBody(ReportEventBody),
    async (c) => {
      const outcome = await testReaction(dependencies, c.var.tenant.id, c.req.valid('json'));
      const reactions = outcome.reactions.map(reactionView);
      return c.json({ status: 'success', data: { totalPoints: outcome.totalPoints, reactions, activatedReactors: outcome.activatedReactors } });
    },
  );
}
