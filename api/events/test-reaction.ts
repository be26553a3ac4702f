import type { AppContext } from '../../shared/context.js';
import { reactionView } from '../../shared/events/event-view.js';
import { testReaction } from '../../shared/events/test-reaction.js';
import type { App } from '../app-env.js';
import { EVENT_BODY_LIMIT } from '../middleware/body-limit.js';
import { defineRoute } from '../routes/define-route.js';
import { ReportEventBody, tags, TestReactionResult } from './schema.js';

export function registerTestReaction(app: App, context: AppContext): void {
  const dependencies = {
    eventTypes: context.eventTypes,
    subjects: context.subjects,
    reactors: context.reactors,
    serviceSubject: context.config.publicBaseUrl,
  };
  defineRoute(app, context, {
    method: 'post',
    path: '/v1/events/test_reaction',
    summary: 'The reactions an event would trigger, without reporting it',
    tags,
    access: { admin: 'admin:events' },
    bodyLimit: EVENT_BODY_LIMIT,
    body: ReportEventBody,
    responses: { 200: { description: 'what would happen', data: TestReactionResult } },
    errors: [404],
    handler: async ({ body }, c) => {
      const outcome = await testReaction(dependencies, c.var.tenant.id, body);
      return {
        totalPoints: outcome.totalPoints,
        reactions: outcome.reactions.map(reactionView),
        activatedReactors: outcome.activatedReactors,
      };
    },
  });
}
