import type { DestinationStream } from 'pino';
import { build, isColorSupported, type MessageFormatFunc } from 'pino-pretty';

/** Fields every line has, or that the printer shows in its own place. */
const NOT_FIELDS = new Set(['level', 'time', 'pid', 'hostname', 'service']);
const ERROR_KEYS = ['err', 'error'];

/**
 * Log lines for a person at a terminal (LOG_FORMAT=pretty, docs/operations.md#logs): one line each,
 * the time, the level and the message, then as `key=value` the fields the message does not say
 * already; an error's stack on the lines below.
 */
export function prettyLines(destination: 1 | 2 | DestinationStream): DestinationStream {
  return build({
    destination,
    // In order with whatever else the process writes to the terminal, and whole at its exit.
    sync: true,
    colorize: isColorSupported,
    translateTime: 'SYS:HH:MM:ss',
    hideObject: true,
    messageFormat: withUnsaidFields,
  });
}

const withUnsaidFields: MessageFormatFunc = (log, messageKey) => {
  const message = typeof log[messageKey] === 'string' ? log[messageKey] : '';
  const fields = Object.entries(log).filter(
    ([key, value]) => key !== messageKey && !NOT_FIELDS.has(key) && !ERROR_KEYS.includes(key) && !said(message, value),
  );
  const line = [
    message,
    ...fields.map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`),
  ];
  const stacks = ERROR_KEYS.map((key) => log[key] as { stack?: string; message?: string } | undefined)
    .filter((error) => error !== undefined)
    .map((error) => `\n    ${(error.stack ?? error.message ?? JSON.stringify(error)).replaceAll('\n', '\n    ')}`);
  return line.filter(Boolean).join(' ') + stacks.join('');
};

/** Whether the message already shows the value, as a word of its own: a string, number or flag, or a list of them all. */
function said(message: string, value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0 && value.every((item) => said(message, item));
  if (!['string', 'number', 'boolean'].includes(typeof value)) return false;
  const text = String(value).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\w])${text}($|[^\\w])`).test(message);
}
