/**
 * A points expiry sweep as its own process, for a test to kill halfway
 * (test/points/expiry-sweep.test.ts): `tsx test/support/expire-points-run.ts` with DATABASE_URL,
 * EXPIRY_NOW (ISO) and EXPIRY_BATCH_SIZE; prints the run as JSON once done.
 */
import { createDatabase } from '../../shared/database.js';
import { expirePoints } from '../../shared/ledger/expire-points.js';

const orm = await createDatabase(process.env.DATABASE_URL!, undefined, { createMissing: false });
try {
  const run = await expirePoints(orm.em.getKnex(), {
    now: new Date(process.env.EXPIRY_NOW!),
    batchSize: Number(process.env.EXPIRY_BATCH_SIZE),
  });
  process.stdout.write(`${JSON.stringify(run)}\n`);
} finally {
  await orm.close();
}
