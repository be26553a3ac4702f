import { Type, type Static } from 'typebox';
import { literalUnion, stringEnum } from '../platform/validation/literal-union.js';
import { TIMESTAMPS } from '../platform/validation/timestamps.js';
import { JOB_KINDS, JOB_STATUSES } from './job.entity.js';

/** A job as GET /v1/jobs/{id} answers it (docs/points.md#bulk-adjustments). */
export const JobResource = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    // An enum, not a union of literals: a union of one kind is an anyOf of one, which Redocly warns of.
    kind: stringEnum(JOB_KINDS, { description: 'POINTS_ADJUSTMENT: a bulk points adjustment' }),
    status: literalUnion(JOB_STATUSES, {
      description:
        'queued until a worker takes it; running; completed once every line was handled (failed lines included); failed when it could not go on (what `done` counts is applied)',
    }),
    total: Type.Integer({ description: 'lines in the job' }),
    done: Type.Integer({ description: 'lines applied so far' }),
    failed: Type.Integer({ description: 'lines that could not be applied so far' }),
    errors: Type.Array(
      Type.Object(
        {
          line: Type.Integer({ description: 'the line, 1 for the first as it was sent' }),
          message: Type.String({ description: 'why it was not applied' }),
        },
        { title: 'JobLineError' },
      ),
      { description: 'each line not applied, in line order' },
    ),
    ...TIMESTAMPS,
    finishedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'when it completed or failed',
    }),
  },
  { title: 'Job' },
);

export type JobView = Static<typeof JobResource>;
