import { Writable } from 'node:stream';
import { expect, it } from 'vitest';
import { createLogger } from '../../shared/platform/logging/logger.js';

/** What a pretty logger writes for `log`, as one string. */
function printed(log: (logger: ReturnType<typeof createLogger>) => void): string {
  let text = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  log(createLogger('info', sink, 'pretty'));
  return text;
}

// docs/operations.md#logs: a person reads these lines at a terminal, so what a client sent (a path, a
// header, a body's text quoted in an error) must not forge a line of its own or drive the terminal.
it('prints control characters a client sent as escapes: one log line stays one line, and no terminal sequence runs', () => {
  const text = printed((logger) =>
    logger.error(
      {
        path: '/v1/x\n10:00:00 INFO: admin signed in',
        agent: '\u001b]0;owned\u0007\u001b[2J',
        err: new Error('bad\rname'),
      },
      'request failed\r\n10:00:01 INFO: forged',
    ),
  );
  const [line, stack] = text.split('\n');
  expect(line).toContain('request failed\\r\\n10:00:01 INFO: forged');
  expect(line).toContain('path=/v1/x\\n10:00:00 INFO: admin signed in');
  expect(line).toContain('agent=\\u001b]0;owned\\u0007\\u001b[2J');
  expect(stack).toContain('Error: bad\\rname');
  // The printer's own colours, where the terminal takes them, are the only escape sequences left.
  for (const sent of ['\r', '\u0007', '\u001b]', '\u001b[2J']) expect(text).not.toContain(sent);
  expect(
    text
      .split('\n')
      .filter((row) => !row.startsWith('    '))
      .filter(Boolean),
  ).toHaveLength(1);
});
