import type { AppContext } from '../../shared/context.js';
import { findJob } from '../../shared/jobs/bulk-adjustments.js';
import { entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { JobResource } from '../../shared/jobs/job-resource.js';
import { access, JOB_ID_EXAMPLE, JobIdParams, tags } from './schema.js';

export function registerGetJob(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/jobs/:id',
    operationId: 'getJob',
    summary: 'Follow a job',
    description:
      "How far a job started by a request answered 202 (a bulk points adjustment) got: its status, how many lines it holds, how many were applied and how many failed, with each failed line's number and reason. Poll it until `status` is `completed` or `failed`. Another tenant's job is 404.",
    examples: {
      response: {
        id: JOB_ID_EXAMPLE,
        kind: 'POINTS_ADJUSTMENT',
        status: 'completed',
        total: 3,
        done: 2,
        failed: 1,
        errors: [{ line: 2, message: 'no member 10042 in the tenant' }],
        createdAt: '2026-11-27T09:00:00.000Z',
        updatedAt: '2026-11-27T09:00:01.000Z',
        finishedAt: '2026-11-27T09:00:01.000Z',
      },
    },
    tags,
    access,
    params: JobIdParams,
    responses: { 200: { description: 'the job', data: JobResource } },
    errors: [404],
    handler: ({ params }, c) => findJob(entityManager(c).getKnex(), c.var.tenant.id, params.id),
  });
}
