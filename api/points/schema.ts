import { Type } from 'typebox';
export { BulkAdjustmentBody } from '../../shared/jobs/adjustment-lines.js';

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
