/**
 * Writes the OpenAPI document to a file (or stdout), or with `--check` fails unless the file holds it,
 * without PostgreSQL or Redis, for the linter and
 * the TypeScript client (`npm run openapi`, `npm run lint:openapi`). The app is built on a context
 * whose connections are never opened: registering routes only keeps references to them, and if a
 * route ever used one at registration, the first touch throws here rather than the dump hanging.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { AppContext } from '../../shared/context.js';
import { loadConfig } from '../../shared/platform/config/config.js';
import { createLogger } from '../../shared/platform/logging/logger.js';
import { createMetrics } from '../../shared/platform/metrics/metrics.js';
import { createApp } from '../app.js';
import { openApiDocument } from './openapi-document.js';

/** The defaults, whatever this shell's environment says: the printed document is the same everywhere. */
const config = loadConfig({ PLATFORM_TOKEN_SECRET: 'openapi-document-only-'.padEnd(43, '0') });

function unopened(name: string): unknown {
  return new Proxy(
    {},
    {
      get(_target, property) {
        throw new Error(
          `printing the OpenAPI document used context.${name}.${String(property)}: it opens no connection`,
        );
      },
    },
  );
}

const present = { config, logger: createLogger('silent'), metrics: createMetrics() } as Record<string, unknown>;
const context = new Proxy(present, {
  get: (target, property: string) => (property in target ? target[property] : unopened(property)),
}) as unknown as AppContext;

// A served document names its own installation; this one stands for any, so its server is a variable.
const served = await openApiDocument(createApp(context), config.publicBaseUrl);
const servers = [
  {
    url: '{publicBaseUrl}',
    description: 'Your installation',
    variables: {
      publicBaseUrl: { default: config.publicBaseUrl, description: "The installation's PUBLIC_BASE_URL" },
    },
  },
];
const document = `${JSON.stringify({ ...served, servers }, null, 2)}\n`;
const check = process.argv.includes('--check');
const [file] = process.argv.slice(2).filter((argument) => argument !== '--check');
if (check) {
  // CI: the committed document (and the client generated from it) must be what the routes say.
  if (!file || !existsSync(file) || readFileSync(file, 'utf8') !== document) {
    process.stderr.write(`${file ?? 'the document'} is not the app's OpenAPI document: run npm run openapi\n`);
    process.exit(1);
  }
} else if (file) writeFileSync(file, document);
else process.stdout.write(document);
