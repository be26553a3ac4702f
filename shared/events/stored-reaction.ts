import type { PointsExpression } from '../kernel/points-expression.js';

/** What became of a VOUCHER reaction as its event was registered: the voucher given, or why none was. */
export type VoucherOutcome = { status: 'GRANTED'; voucherId: string } | { status: 'FAILED'; reason: string };

/**
 * A reaction as stored with its event and listed by GET /events/{id}/reactions, with the reactor it
 * came from. A VOUCHER reaction carries its outcome once registration has granted it; one that
 * POST /events/test_reaction computes grants nothing and has none.
 */
export type StoredReaction = { reactorName: string; reactorId: string } & (
  | { type: 'POINTS'; points: PointsExpression; amount: number; requestedAmount?: number }
  | { type: 'WEBHOOK'; webhookId: string }
  | ({ type: 'VOUCHER'; rewardId: string } & (VoucherOutcome | { status?: undefined }))
);
