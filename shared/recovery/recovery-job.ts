import { Type } from 'typebox';

/** The payload of a `recovery` job: nothing, the job is its schedule. */
export const RecoveryJob = Type.Object({}, { additionalProperties: false });

/** How often the recovery sweep runs, on whichever worker takes the job. */
export const RECOVERY_EVERY_MS = 30_000;
