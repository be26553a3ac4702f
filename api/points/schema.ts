import { Type } from 'typebox';
import { AdjustmentLineSchema, MAX_ADJUSTMENT_LINES } from '../../shared/jobs/adjustment-lines.js';

export const BulkAdjustmentBody = Type.Object(
  {
    lines: Type.Array(AdjustmentLineSchema, {
      minItems: 1,
      maxItems: MAX_ADJUSTMENT_LINES,
      description: 'The adjustments, applied in this order; line 1 is the first.',
    }),
  },
  { additionalProperties: false, title: 'BulkAdjustmentBody' },
);

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
export const tags = ['Points'];
