import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { clickView, recordClick } from '../../shared/referrals/referral-clicks.js';
import { ReferralActivity } from '../../shared/referrals/referral-activity.entity.js';
import { ReferralActivityFields } from '../../shared/referrals/referral-activity-fields.js';
import { entityManager, type App } from '../app-env.js';
import { createsRecord } from '../middleware/idempotency.js';
import { tags } from '../referral-campaigns/schema.js';
import { success } from '../routes/answer.js';
import { defineRoute } from '../routes/define-route.js';

const { source, sourceUserId, userAgent } = ReferralActivityFields;

export const RecordReferralActivityBody = Type.Object(
  {
    inviteCode: Type.String({ minLength: 1, maxLength: 64, description: 'the invite code that was clicked' }),
    activityType: Type.Literal('CLICK'),
    source,
    sourceUserId,
    userAgent,
  },
  { additionalProperties: false, title: 'RecordReferralActivityBody' },
);

const ReferralActivityResource = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    activityType: Type.Literal('CLICK'),
    inviteCode: Type.String(),
    source: Type.String(),
    userAgent: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
  },
  {
    title: 'ReferralActivity',
    description: 'A click on an invite. Its `sourceUserId` is not shown: it is kept only as a keyed hash.',
  },
);

const EXAMPLE = {
  inviteCode: 'K7MQ2XWD',
  activityType: 'CLICK',
  source: 'EMAIL',
  sourceUserId: 'friend@example.org',
  userAgent: 'WEB',
} as const;

export function registerRecordReferralActivity(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'post',
    path: '/v1/referral_activities',
    operationId: 'recordReferralActivity',
    description:
      "Records a click on an invite, counted in its campaign's statistics. Needs the API key alone, so the page an invite leads to can report it. `sourceUserId` is kept only as a keyed hash, and not shown in the answer. An `inviteCode` of no active campaign is 400 BadRequestError naming it.",
    examples: {
      request: EXAMPLE,
      response: {
        id: '7f8091a2-b3c4-4d5e-8f60-718293a4b5c6',
        activityType: EXAMPLE.activityType,
        inviteCode: EXAMPLE.inviteCode,
        source: EXAMPLE.source,
        userAgent: EXAMPLE.userAgent,
        createdAt: '2026-02-03T11:00:00.000Z',
      },
    },
    summary: 'Record a click on an invite',
    tags,
    access: 'apiKey',
    idempotency: createsRecord(async (c, id) => {
      const click = await entityManager(c).findOne(
        ReferralActivity,
        { tenant: c.var.tenant.id, id },
        { populate: ['code'] },
      );
      return click ? success(c, clickView(click), 201) : undefined;
    }),
    body: RecordReferralActivityBody,
    responses: { 201: { description: 'recorded', data: ReferralActivityResource } },
    errors: [400],
    handler: async ({ body }, c) =>
      clickView(await recordClick(entityManager(c), context.sourceUserKey, c.var.tenant.id, body, c.var.reservedId)),
  });
}
