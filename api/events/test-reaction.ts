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
    operationId: 'testEventReaction',
    description:
      "Runs the reactors of an event's type on the event you send, and answers what they would grant and deliver, without reporting, storing or delivering anything: a dry run for building reactors.",
    examples: {
      request: {
        type: 'PURCHASE',
        payload: { total: 42.5, shop: 'Main Street' },
        subject: 'member-17',
        occurredAt: '2026-02-01T11:59:30.000Z',
      },
      response: {
        totalPoints: 425,
        reactions: [
          {
            type: 'POINTS',
            points: {
              operation: 'MULTIPLY',
              arguments: [
                { type: 'PATH', value: '$.payload.total' },
                { type: 'NUMBER', value: '10' },
              ],
            },
            reactorName: 'Ten points a euro',
          },
        ],
        activatedReactors: [{ name: 'Ten points a euro', id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d' }],
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
