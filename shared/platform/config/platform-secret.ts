import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, isDevelopment, type Environment } from './environment.js';

/** Where a generated platform secret is kept on a developer machine, under the project's root (git-ignored). */
export const LOCAL_SECRET_FILE = '.tally/platform-token-secret';

/**
 * Outside development PLATFORM_TOKEN_SECRET must be set: a secret generated per machine would sign
 * tokens that the other replicas refuse. In development one is generated on first run into a
 * git-ignored file at the project's root, so the server and the CLI agree wherever they run from.
 */
export function platformTokenSecret(env: Environment): string {
  const secret = env.PLATFORM_TOKEN_SECRET;
  if (secret) return secret;
  if (!isDevelopment(env))
    throw new ConfigError(
      `PLATFORM_TOKEN_SECRET is not set, and NODE_ENV is "${env.NODE_ENV}", not development: set it to the same random secret on every process (openssl rand -base64 32)`,
    );
  const file = localSecretFile();
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dirname(file), { recursive: true });
  const generated = randomBytes(32).toString('base64url');
  try {
    writeFileSync(file, `${generated}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process started at the same moment wrote it first: theirs is the secret.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw error;
  }
  return generated;
}

/** LOCAL_SECRET_FILE under the project's root: the nearest folder above this module that holds package.json (the same from sources and from dist/). */
export function localSecretFile(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(folder, 'package.json'))) {
    const parent = dirname(folder);
    if (parent === folder)
      throw new ConfigError(
        "PLATFORM_TOKEN_SECRET is not set, and the project's root was not found to keep a generated one",
      );
    folder = parent;
  }
  return join(folder, LOCAL_SECRET_FILE);
}
