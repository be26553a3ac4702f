import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';

/**
 * Sets a header of the answer to come, for the middleware that stamps every answer (request id,
 * rate limit). Under @hono/node-server it goes straight onto Node's response, which merges it into
 * the head it writes: Hono's `c.header` builds a web `Headers` object for the answer, whose
 * validation and conversion back cost POST /v1/events about 5% of its CPU. Without Node's response
 * (`app.request` in tests and tools), `c.header` it is.
 */
export function setResponseHeader(c: Context, name: string, value: string): void {
  const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
  if (outgoing) outgoing.setHeader(name, value);
  else c.header(name, value);
}
