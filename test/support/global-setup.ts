import type { TestProject } from 'vitest/node';
import { dropDatabase, ensureDatabase } from '../../shared/platform/db/ensure-database.js';
import { createDatabase } from '../../shared/database.js';
import { migrate } from '../../shared/platform/db/orm.js';
import { databaseUrl } from './test-database.js';

/**
 * Migrates one template database per test run; each test file then gets its own database copied
 * from it (trigger.dev's testcontainers harness does the same), which is fast and fully isolated.
 */
export default async function setup(project: TestProject) {
  const template = `tally_test_template_${process.pid}`;
  const url = databaseUrl(template);
  await dropDatabase(url);
  await ensureDatabase(url);
  const orm = await createDatabase(url);
  try {
    await migrate(orm);
  } finally {
    await orm.close();
  }
  project.provide('templateDatabase', template);
  return async () => {
    await dropDatabase(url);
  };
}
