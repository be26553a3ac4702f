import { pino, type DestinationStream, type Logger } from 'pino';
import { prettyLines } from './pretty-lines.js';

export type { Logger };

/** JSON lines for machines, or lines for a person at a terminal (docs/operations.md#logs). */
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/**
 * Structured logs, JSON lines by default, on stdout by default; every request and job logs through
 * a child carrying its id. The CLI logs to stderr (fd 2), keeping its stdout for its JSON answer;
 * tests pass a stream.
 */
export function createLogger(
  level: string,
  destination: 1 | 2 | DestinationStream = 1,
  format: LogFormat = 'json',
): Logger {
  return pino(
    {
      level,
      base: { service: 'tally' },
      timestamp: pino.stdTimeFunctions.isoTime,
      // `"level":"info"`, not pino's 30: what log collectors and people read without a table (docs/operations.md#logs).
      formatters: { level: (label) => ({ level: label }) },
      // Never let a credential reach the log, whichever object it travels in.
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers["x-api-key"]',
          '*.secret',
          '*.key',
          '*.sharedKey',
          '*.password',
        ],
        censor: '[redacted]',
      },
    },
    format === 'pretty'
      ? prettyLines(destination)
      : typeof destination === 'number'
        ? pino.destination({ fd: destination, sync: destination === 2 })
        : destination,
  );
}
