#!/usr/bin/env node
/**
 * `tally`: the operator's command line (docs/operations.md#cli). Prints JSON on stdout and nothing
 * else there; diagnostics go to stderr, and a failure exits 1 with one line saying why.
 */
import { parseArgs } from 'node:util';
import { runCommand, UsageError } from './commands.js';

const AUTH = `[--auth-algorithm HS256 --auth-issuer ISS --auth-shared-key KEY
                   | --auth-algorithm RS256 --auth-issuer ISS --auth-jwks-url URL]`;

const TENANT_USAGE = `  tally tenant create --name NAME --slug SLUG ${AUTH} [--configuration JSON]
  tally tenant list
  tally tenant show --tenant SLUG
  tally tenant update --tenant SLUG [--name NAME] [--configuration JSON] ${AUTH}
  tally tenant disable --tenant SLUG
  tally tenant enable --tenant SLUG
  tally tenant rotate-key --tenant SLUG`;

const USAGE = `usage:
${TENANT_USAGE}
  tally points adjust --tenant SLUG --file FILE.csv|FILE.json
  tally token admin --tenant SLUG --scope "SCOPE …" [--ttl 1h] [--subject NAME]
  tally migrate`;

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      slug: { type: 'string' },
      tenant: { type: 'string' },
      scope: { type: 'string' },
      ttl: { type: 'string' },
      subject: { type: 'string' },
      file: { type: 'string' },
      configuration: { type: 'string' },
      'auth-algorithm': { type: 'string' },
      'auth-issuer': { type: 'string' },
      'auth-shared-key': { type: 'string' },
      'auth-jwks-url': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  // `tally` or `tally tenant` alone: what there is to run. Nothing was done, so it exits 1 unless asked for.
  if (values.help || positionals.length === 0 || positionals.join(' ') === 'tenant') {
    const usage = positionals[0] === 'tenant' ? `usage:\n${TENANT_USAGE}` : USAGE;
    process.stderr.write(`${usage}\n`);
    process.exitCode = values.help ? 0 : 1;
    return;
  }
  const result = await runCommand(positionals, values);
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`tally: ${message}\n${error instanceof UsageError ? `${USAGE}\n` : ''}`);
  process.exit(1);
});
