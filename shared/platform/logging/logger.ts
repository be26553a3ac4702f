import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs, on stdout by default; every request and job logs through a child carrying
 * its id. The CLI logs to stderr (fd 2), keeping its stdout for its JSON answer; tests pass a stream.
 */
export function createLogger(level: string, destination: 1 | 2 | DestinationStream = 1): Logger {
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
    typeof destination === 'number' ? pino.destination({ fd: destination, sync: destination === 2 }) : destination,
  );
}
