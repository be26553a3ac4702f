import { uuidPath } from '../routes/request-input.js';

/** The job of the examples: the bulk adjustment's answer names it, and it is followed by its id. */
export const JOB_ID_EXAMPLE = '5d1c1f9e-6a43-4f7e-9a3e-0c2b8a6f4d11';

export const JobIdParams = uuidPath({
  id: { description: "The job's id, as the request that started it answered", example: JOB_ID_EXAMPLE },
});

export const access = { admin: 'admin:users' } as const;
export const tags = ['Jobs'];
