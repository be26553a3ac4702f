import { Type } from 'typebox';

/** The payload of a `points-expiry` job: nothing, the job is its schedule (docs/points.md#the-sweep). */
export const PointsExpiryJob = Type.Object({}, { additionalProperties: false });
