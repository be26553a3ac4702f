import { Type } from 'typebox';
export { BulkAdjustmentBody } from '../../shared/jobs/adjustment-lines.js';
import type { ListSpec } from '../../shared/platform/lists/list-spec.js';
import { EVENT_EXAMPLE } from '../events/schema.js';
import { PURCHASE_EXAMPLE } from '../purchases/schema.js';
import { REACTOR_EXAMPLE } from '../reactors/schema.js';
import { REWARD_EXAMPLE } from '../rewards/schema.js';

export const tags = ['Points'];

export const POINTS_HISTORY_LIST: ListSpec = {
  resource: 'points-history',
  defaultSort: 'createdAt',
  fields: {
    kind: { type: 'string', filterable: true },
    createdAt: { type: 'datetime', filterable: true, sortable: true },
  },
};

export const POINTS_HISTORY_PAGE =
  'A page of the list: `limit`, `skip`, `sort`, `order` and an O-Rison `filter` over the fields named below; `Content-Range` (`points-history a-b/n`) says where the page sits in the whole.';

/** The body of POST /v1/users/{id}/points-adjustments (docs/points.md#adjustments). */
export const CreatePointsAdjustmentBody = Type.Object(
  {
    points: Type.Integer({
      minimum: -1_000_000_000,
      maximum: 1_000_000_000,
      description: 'the points to add (positive) or take away (negative); never 0',
    }),
    reason: Type.String({
      minLength: 1,
      maxLength: 500,
      description: 'why: shown in the member’s points history and the audit log',
    }),
  },
  { additionalProperties: false, title: 'CreatePointsAdjustmentBody' },
);

export const ADJUSTMENT_EXAMPLE = {
  id: '5c6d7e8f-9a0b-4c1d-8e2f-3a4b5c6d7e8f',
  kind: 'ADJUSTMENT' as const,
  points: 50,
  createdAt: '2026-02-14T10:30:00.000Z',
  expiresAt: null,
  cause: { type: 'ADJUSTMENT' as const, reason: 'Goodwill after a late delivery', actor: 'support@example.com' },
};

export const POINTS_HISTORY_EXAMPLE = [
  ADJUSTMENT_EXAMPLE,
  {
    id: 'd2e3f4a5-b6c7-4d8e-9f0a-1b2c3d4e5f6a',
    kind: 'SPEND' as const,
    points: -PURCHASE_EXAMPLE.points,
    createdAt: '2026-02-12T09:00:00.000Z',
    expiresAt: null,
    cause: {
      type: 'PURCHASE' as const,
      purchaseId: PURCHASE_EXAMPLE.id,
      rewardId: REWARD_EXAMPLE.id,
      rewardName: REWARD_EXAMPLE.name,
    },
  },
  // The examples' event, as its reactor granted it (an EARN cut by an earn cap also shows `requestedPoints`).
  {
    id: 'e3f4a5b6-c7d8-4e9f-8a1b-2c3d4e5f6a7b',
    kind: 'EARN' as const,
    points: 425,
    createdAt: '2026-02-01T12:00:00.120Z',
    expiresAt: '2027-02-01T12:00:00.120Z',
    cause: {
      type: 'EVENT' as const,
      eventId: EVENT_EXAMPLE.id,
      eventType: EVENT_EXAMPLE.type.name,
      reactorId: REACTOR_EXAMPLE.id,
      reactorName: REACTOR_EXAMPLE.name,
    },
  },
];

export const BulkAdjustmentAccepted = Type.Object(
  {
    jobId: Type.String({
      format: 'uuid',
      description: 'The job applying the lines: follow it with GET /v1/jobs/{id}.',
    }),
  },
  { title: 'BulkAdjustmentAccepted' },
);

export const bulkAccess = { admin: 'admin:users' } as const;
