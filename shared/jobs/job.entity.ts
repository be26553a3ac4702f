import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantOwned } from '../tenants/tenant-owned.js';

export const JOB_KINDS = ['POINTS_ADJUSTMENT'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/** queued until a worker takes it, running while it works, completed once every line is handled; failed when its retries ran out. */
export const JOB_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** A line that could not be applied: its 1-based number as the client sent it, and why. */
export interface JobLineError {
  line: number;
  message: string;
}

/**
 * Long work an admin asked for and follows with GET /v1/jobs/{id} (docs/points.md#bulk-adjustments).
 * The row is the job's truth: its input, and how far it got (`cursor`: lines handled so far),
 * which its worker moves in the same transaction as the work of those lines, so a worker killed
 * and the job run again goes on where the last commit left it and handles no line twice.
 */
export const Job = defineEntity({
  name: 'Job',
  tableName: 'job',
  indexes: [
    { properties: ['tenant', 'createdAt'] },
    // What the recovery sweep reads: the jobs not finished (bulk-adjustments.ts, recoverStrandedJobs).
    {
      name: 'job_unfinished_index',
      expression: `create index "job_unfinished_index" on "job" ("updated_at") where "status" in ('queued', 'running')`,
    },
  ],
  properties: {
    ...tenantOwned(),
    kind: p.enum([...JOB_KINDS]),
    status: p.enum([...JOB_STATUSES]),
    total: p.integer(),
    done: p.integer(),
    failed: p.integer(),
    input: p.json<unknown[]>().lazy(),
    cursor: p.integer(),
    /** How many times a worker took the job up: a job that kills its worker every time is given up at MAX_JOB_RUNS. */
    runs: p.integer().default(0),
    /** Who asked: an admin token's subject, or `cli`. */
    actor: p.text(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    finishedAt: p.datetime().nullable(),
  },
});

export type Job = InferEntity<typeof Job>;

/**
 * A line of a job that could not be applied, one row each: written with its batch, so a job whose
 * every line fails writes each error once rather than rewriting a growing list per batch.
 */
export const JobError = defineEntity({
  name: 'JobError',
  tableName: 'job_error',
  properties: {
    job: p.manyToOne(Job).primary().deleteRule('cascade'),
    /** 1-based, as the client sent the lines. */
    line: p.integer().primary(),
    message: p.text(),
  },
});

export type JobError = InferEntity<typeof JobError>;
