import { TIMESTAMPS } from '../validation/timestamps.js';
import { Type } from 'typebox';
import { literalUnion } from '../validation/literal-union.js';
import { JOB_KINDS, JOB_STATUSES } from '../../shared/jobs/job.entity.js';
import { uuidPath } from '../routes/request-input.js';

/** The job of the examples: the bulk adjustment's answer names it, and it is followed by its id. */
export const JOB_ID_EXAMPLE = '5d1c1f9e-6a43-4f7e-9a3e-0c2b8a6f4d11';

export const JobIdParams = uuidPath({
  id: { description: "The job's id, as the request that started it answered", example: JOB_ID_EXAMPLE },
});

export const JobResource = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    // An enum, not a union of literals: a union of one kind is an anyOf of one, which Redocly warns of.
    kind: Type.String({ enum: [...JOB_KINDS], description: 'POINTS_ADJUSTMENT: a bulk points adjustment' }),
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

export const access = { admin: 'admin:users' } as const;
export const tags = ['Jobs'];
