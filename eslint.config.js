import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/** The folders of a directory: the features (or infrastructure) it holds. */
const foldersOf = (directory) =>
  readdirSync(directory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

/** api/ folders that serve every route rather than being a feature of their own. */
const API_INFRASTRUCTURE = ['errors', 'lists', 'middleware', 'openapi', 'operations', 'validation', 'routes'];
const apiFeatures = foldersOf('api').filter((name) => !API_INFRASTRUCTURE.includes(name));
/** shared/ folders that are not features: the infrastructure, and the composition root's migrations. */
const sharedFeatures = foldersOf('shared').filter((name) => !['platform', 'migrations'].includes(name));

/**
 * The dependency rule (issue 18): the layers point one way (api and workers → shared, features →
 * platform), platform/ knows no feature, and a feature reaches another only through its surface.
 */
const restrictedZones = [
  {
    target: './shared/platform',
    from: './shared',
    except: ['./platform'],
    message: 'shared/platform/ is infrastructure: it imports no feature and not the composition root.',
  },
  {
    target: './shared',
    from: ['./api', './workers', './cli', './main.ts'],
    message: 'The domain knows no HTTP, worker or CLI code.',
  },
  { target: './api', from: ['./workers', './cli'], message: 'Routes call shared/, never a worker or the CLI.' },
  { target: './workers', from: ['./api', './cli'], message: 'Workers call shared/, never a route or the CLI.' },
  // In api/, a feature's surface for other features is its schema.ts (shared resource shapes).
  ...apiFeatures.map((feature) => ({
    target: `./api/!(${feature})/**`,
    from: `./api/${feature}/**`,
    // A glob `from` takes glob exceptions, matched against the whole path.
    except: [`**/api/${feature}/schema.ts`],
    message: `api/${feature}/ shares only its schema.ts with other features.`,
  })),
  // In shared/, a feature's subfolders (receipts/ocr/, …) are its own: only it and its worker use them.
  ...sharedFeatures.map((feature) => ({
    target: [`./shared/!(${feature})/**`, './api/**'],
    from: `./shared/${feature}/*/**`,
    message: `shared/${feature}/'s subfolders are private to the feature (and its worker).`,
  })),
];

/** Issue 33: the layers' check (dependency-cruiser) reads import paths; a computed one it cannot see. */
const WRITTEN_IMPORT_PATHS = {
  selector:
    "ImportExpression:not([source.type='Literal']):not([source.type='TemplateLiteral'][source.expressions.length=0])",
  message: 'Import a module by its path as written, so the layers check sees it',
};

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  {
    files: ['**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // import-x reads each imported module to follow cycles: it must parse TypeScript and resolve `.js` to `.ts`.
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': ['error', { zones: restrictedZones }],
    },
  },
  {
    // Issue 17: request bodies reached entities wholesale through open update schemas. PATCH bodies
    // are built by changesSchema() and copied field by field by copyWritableFields().
    files: ['api/**/*.ts', 'shared/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='Type'][callee.property.name='Partial']",
          message: 'Type.Partial opens the schema: use changesSchema()',
        },
        {
          selector: "CallExpression[callee.property.name='assign'][callee.object.name!='Object']",
          message: 'Copy named writable fields with copyWritableFields(), never a whole object',
        },
        WRITTEN_IMPORT_PATHS,
        {
          // Issue 31: every JSON answer says its charset; Hono's c.json names none, whatever the context is called.
          selector: "CallExpression[callee.object.name=/^(c|ctx|context)$/][callee.property.name='json']",
          message: 'Answer JSON with jsonAnswer() (api/routes/answer.ts), which says its charset',
        },
      ],
    },
  },
  {
    files: ['workers/**/*.ts', 'cli/**/*.ts', 'main.ts'],
    rules: { 'no-restricted-syntax': ['error', WRITTEN_IMPORT_PATHS] },
  },
  {
    files: ['shared/migrations/create-migration.ts'],
    rules: { 'no-console': 'off' },
  },
);
