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
    .map((error) => (error.stack ?? error.message ?? JSON.stringify(error)).split('\n').map(printable).join('\n    '))
    .map((stack) => `\n    ${stack}`);
  return printable(line.filter(Boolean).join(' ')) + stacks.join('');
};

const SHORT_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * Control characters (C0, DEL, C1), line and paragraph separators and bidirectional overrides
 * written as escapes (`\n`, `\r`, `\t`, else `\uXXXX`): what a client sent (a path, a header,
 * text an error quotes) cannot end a line and forge the next, nor drive the terminal with an escape
 * sequence. JSON lines need no such care: JSON escapes them itself.
 */
function printable(text: string): string {
  return text.replace(
    /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu,
    (character) => SHORT_ESCAPES[character] ?? `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Whether the message already shows the value, as a word of its own: a string, number or flag, or a list of them all. */
function said(message: string, value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0 && value.every((item) => said(message, item));
  if (!['string', 'number', 'boolean'].includes(typeof value)) return false;
  const text = String(value).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\w])${text}($|[^\\w])`).test(message);
}
