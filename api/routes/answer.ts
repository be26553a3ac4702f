import { Type } from 'typebox';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../app-env.js';

/**
 * What a route handler returns when the status or headers depend on the outcome (201 for a new
 * order, 200 for the one already submitted; a list page's Content-Range). A handler that returns
 * plain data is answered with the route's one success status.
 */
export class Answer<Data = unknown> {
  constructor(
    readonly data: Data,
    readonly status?: ContentfulStatusCode,
    readonly headers?: Record<string, string>,
  ) {}
}

export function answer<Data>(
  data: Data,
  options: { status?: ContentfulStatusCode; headers?: Record<string, string> } = {},
): Answer<Data> {
  return new Answer(data, options.status, options.headers);
}

/** What every JSON answer says it is (docs/api-conventions.md#errors): Hono's `c.json` names no charset. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** A JSON answer, success or error: the one writer of JSON bodies, so each says its charset. */
export function jsonAnswer(
  c: Context,
  body: unknown,
  status: ContentfulStatusCode,
  headers?: Record<string, string>,
): Response {
  return c.body(JSON.stringify(body), status, { ...headers, 'Content-Type': JSON_CONTENT_TYPE });
}

/** The success envelope of docs/api-conventions.md#errors, built here and nowhere else. */
export function success(
  c: Context<AppEnv>,
  data: unknown,
  status: ContentfulStatusCode,
  headers?: Record<string, string>,
): Response {
  return jsonAnswer(c, { status: 'success', data }, status, headers);
}

/** What a DELETE answers: how many records it removed (one, or 404 before it). */
export const Deleted = Type.Object({ affected: Type.Integer() }, { title: 'Deleted' });
export const DELETED_ONE = { affected: 1 };
