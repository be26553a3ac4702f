import { readdirSync } from 'node:fs';

/**
 * The floors of shared/ (docs/architecture.md#layers), bottom first. A folder imports its own
 * floor's folders and those below, never one above; `npm run lint` fails on an upward import, on a
 * cycle between folders, and on a feature importing the composition root.
 */
const FLOORS = [
  { name: 'platform', folders: ['platform'] },
  { name: 'kernel', folders: ['kernel'] },
  { name: 'tenant', folders: ['tenants'] },
  { name: 'records', folders: ['audit', 'idempotency'] },
  { name: 'definitions', folders: ['users', 'venues', 'products', 'event-types'] },
  { name: 'foundations', folders: ['tenant-admin', 'ledger', 'consents', 'rules', 'events'] },
  { name: 'features', folders: ['receipts', 'orders', 'referrals', 'rewards', 'webhooks', 'jobs'] },
  { name: 'reactions', folders: ['reactors'] },
  { name: 'compositions', folders: ['members', 'recovery'] },
];

/**
 * The composition root: shared/'s top-level files (context.ts, database.ts, entities.ts,
 * job-catalog.ts) and its migrations, built once at start and imported by api/, workers/, cli/ and
 * main.ts alone. A new top-level file is one of them: a helper belongs on a floor.
 */
const COMPOSITION_ROOT = '^shared/[^/]+[.]ts$|^shared/migrations/';

// A new folder of shared/ is placed on a floor before anything may import it.
const unplaced = readdirSync('shared', { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'migrations')
  .map(({ name }) => name)
  .filter((name) => !FLOORS.some(({ folders }) => folders.includes(name)));
if (unplaced.length)
  throw new Error(`Place shared/${unplaced.join(', shared/')} on a floor of .dependency-cruiser.mjs`);

const inFolders = (folders) => `^shared/(${folders.join('|')})/`;

const upwardImports = FLOORS.slice(0, -1).map((floor, index) => ({
  name: `no-upward-import-from-${floor.name}`,
  comment: `${floor.folders.join(', ')} may import only their own floor and those below it`,
  severity: 'error',
  from: { path: inFolders(floor.folders) },
  to: { path: inFolders(FLOORS.slice(index + 1).flatMap(({ folders }) => folders)) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    ...upwardImports,
    {
      name: 'no-feature-imports-composition-root',
      comment: 'A feature declares the narrow dependencies it needs; context.ts satisfies them',
      severity: 'error',
      from: { path: '^shared/[^/]+/', pathNot: '^shared/migrations/' },
      to: { path: COMPOSITION_ROOT },
    },
    {
      name: 'no-folder-cycle',
      comment: 'Folders of shared/ import each other one way only',
      severity: 'error',
      scope: 'folder',
      from: { path: '^shared/' },
      to: { circular: true },
    },
    {
      name: 'no-file-cycle',
      comment: 'No two modules import each other, directly or round a loop, type imports included',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    includeOnly: '^(shared|api|workers|cli|main[.]ts)',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
