import type { AppContext } from '../../shared/context.js';
import { reactionView } from '../../shared/events/event-view.js';
import { testReaction } from '../../shared/reactors/test-reaction.js';
import type { App } from '../app-env.js';
import { EVENT_BODY_LIMIT } from '../middleware/body-limit.js';
import { REACTOR_EXAMPLE } from '../reactors/schema.js';
import { defineRoute } from '../routes/define-route.js';
import { REACTIONS_EXAMPLE, REPORTED_EVENT_EXAMPLE, ReportEventBody, tags, TestReactionResult } from './schema.js';

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
    operationId: 'testEventReaction',
    description:
      "Runs the reactors of an event's type on the event you send, and answers what they would grant and deliver, without reporting, storing or delivering anything: a dry run for building reactors. The type, the payload (against the type's schema) and the subject are checked as a report's are.",
    examples: {
      request: REPORTED_EVENT_EXAMPLE,
      response: {
        ...REACTIONS_EXAMPLE,
        activatedReactors: [{ name: REACTOR_EXAMPLE.name, id: REACTOR_EXAMPLE.id }],
      },
    },
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
