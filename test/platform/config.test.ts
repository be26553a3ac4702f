import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jobRecoveryBoundMs, loadConfig } from '../../shared/platform/config/config.js';
import { ConfigError } from '../../shared/platform/config/environment.js';
import { LOCAL_SECRET_FILE, localSecretFile } from '../../shared/platform/config/platform-secret.js';
import { ROOT } from '../support/run-process.js';

const SECRET = { PLATFORM_TOKEN_SECRET: 'a secret for this test alone' };

// docs/operations.md#durability: "another worker takes the job up within WORKER_LOCK_MS +
// WORKER_STALLED_CHECK_MS: 25 s by default". The spawned workers of
// test/events/worker-recovery.test.ts show the mechanism with short values; this checks the defaults.
describe('worker locks', () => {
  it("by default a dead worker's jobs are taken up again within 30 s", () => {
    const config = loadConfig(SECRET);
    expect(jobRecoveryBoundMs(config)).toBe(config.workerLockMs + config.workerStalledCheckMs);
    expect(jobRecoveryBoundMs(config)).toBeLessThanOrEqual(30_000);
    // The lock is renewed every half of it: a shorter lock costs more Redis round trips.
    expect(config.workerLockMs).toBeGreaterThanOrEqual(10_000);
  });

  it('refuses a stalled check further apart than the lock, which would let a job wait for a second check', () => {
    expect(() => loadConfig({ ...SECRET, WORKER_LOCK_MS: '5000', WORKER_STALLED_CHECK_MS: '6000' })).toThrow(
      new ConfigError(
        'WORKER_STALLED_CHECK_MS (6000) must not exceed WORKER_LOCK_MS (5000): a job would wait for a second check',
      ),
    );
  });
});

// docs/points.md#the-sweep: "every POINTS_EXPIRY_EVERY_MS (default hourly)", "POINTS_EXPIRY_BATCH_SIZE lots (default 1,000)".
describe('the points expiry sweep', () => {
  it('runs hourly, 1,000 lots a transaction, by default', () => {
    expect(loadConfig(SECRET)).toMatchObject({ pointsExpiryEveryMs: 3_600_000, pointsExpiryBatchSize: 1000 });
    expect(loadConfig({ ...SECRET, POINTS_EXPIRY_EVERY_MS: '60000', POINTS_EXPIRY_BATCH_SIZE: '50' })).toMatchObject({
      pointsExpiryEveryMs: 60_000,
      pointsExpiryBatchSize: 50,
    });
  });

  it('refuses a batch of no lots, which would never expire any', () => {
    expect(() => loadConfig({ ...SECRET, POINTS_EXPIRY_BATCH_SIZE: '0' })).toThrow(
      new ConfigError('POINTS_EXPIRY_EVERY_MS and POINTS_EXPIRY_BATCH_SIZE must be more than 0'),
    );
  });
});

// docs/operations.md#configuration: OCR_ENGINE, default `paddle`, "which engine reads claims' images: `paddle` … or `tesseract`".
describe('the OCR engine', () => {
  it('is PaddleOCR unless told, tesseract.js when told, and nothing else', () => {
    expect(loadConfig(SECRET).ocrEngine).toBe('paddle');
    expect(loadConfig({ ...SECRET, OCR_ENGINE: 'tesseract' }).ocrEngine).toBe('tesseract');
    expect(() => loadConfig({ ...SECRET, OCR_ENGINE: 'easyocr' })).toThrow(
      new ConfigError('OCR_ENGINE must be one of paddle, tesseract, not "easyocr"'),
    );
  });
});

// docs/operations.md#logs: "LOG_FORMAT: `pretty` … when unset, at a terminal in development; `json` otherwise".
describe('the log format', () => {
  it('is lines for a person at a terminal in development, JSON lines without one or outside development', () => {
    expect(loadConfig(SECRET, true).logFormat).toBe('pretty');
    expect(loadConfig(SECRET, false).logFormat).toBe('json');
    expect(loadConfig({ ...SECRET, NODE_ENV: 'production' }, true).logFormat).toBe('json');
  });

  it('is LOG_FORMAT when set, and nothing but json or pretty', () => {
    expect(loadConfig({ ...SECRET, LOG_FORMAT: 'json' }, true).logFormat).toBe('json');
    expect(loadConfig({ ...SECRET, LOG_FORMAT: 'pretty' }, false).logFormat).toBe('pretty');
    expect(() => loadConfig({ ...SECRET, LOG_FORMAT: 'text' })).toThrow(
      new ConfigError('LOG_FORMAT must be one of json, pretty, not "text"'),
    );
  });
});

// docs/operations.md#configuration: "a malformed value stops the start with one line naming the variable".
describe('connection URLs', () => {
  it.each([
    ['DATABASE_URL', 'notaurl', 'DATABASE_URL is not a URL: expected one such as postgres://user@127.0.0.1:5432/tally'],
    [
      'DATABASE_URL',
      'mysql://root@127.0.0.1/tally',
      'DATABASE_URL must start with postgres:// or postgresql://, not mysql://: expected one such as postgres://user@127.0.0.1:5432/tally',
    ],
    [
      'DATABASE_URL',
      'postgres://postgres@127.0.0.1:5432',
      'DATABASE_URL names no database: end it with /<database>, as in postgres://user@127.0.0.1:5432/tally',
    ],
    [
      'REDIS_URL',
      'http://127.0.0.1:6379',
      'REDIS_URL must start with redis:// or rediss://, not http://: expected one such as redis://127.0.0.1:6379',
    ],
  ])('%s=%s is refused, naming the variable', (name, value, message) => {
    expect(() => loadConfig({ ...SECRET, [name]: value })).toThrow(new ConfigError(message));
  });

  it('a password in a refused URL is not echoed', () => {
    expect(() => loadConfig({ ...SECRET, DATABASE_URL: 'mysql://root:hunter2@127.0.0.1/tally' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('hunter2') }),
    );
  });
});

// docs/operations.md#configuration: "Development is NODE_ENV unset, development or test".
describe('PLATFORM_TOKEN_SECRET', () => {
  it.each(['production', 'staging'])('unset with NODE_ENV=%s is refused', (nodeEnv) => {
    expect(() => loadConfig({ NODE_ENV: nodeEnv })).toThrow(
      new ConfigError(
        `PLATFORM_TOKEN_SECRET is not set, and NODE_ENV is "${nodeEnv}", not development: set it to the same random secret on every process (openssl rand -base64 32)`,
      ),
    );
  });

  it('unset in development is generated once at the project root, the same from any working directory', () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'tally-cwd-'));
    const here = process.cwd();
    try {
      process.chdir(elsewhere);
      const fromElsewhere = loadConfig({ NODE_ENV: 'development' }).platformTokenSecret;
      process.chdir(ROOT);
      const fromRoot = loadConfig({}).platformTokenSecret;
      expect(fromElsewhere).toBe(fromRoot);
      expect(localSecretFile()).toBe(join(ROOT, LOCAL_SECRET_FILE));
      expect(readFileSync(localSecretFile(), 'utf8').trim()).toBe(fromRoot);
      expect(existsSync(join(elsewhere, LOCAL_SECRET_FILE))).toBe(false);
    } finally {
      process.chdir(here);
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
