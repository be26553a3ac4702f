import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEnv } from '../../api/app-env.js';
import { handleError, handleNotFound } from '../../api/errors/error-handler.js';
import { requestContext } from '../../api/middleware/request-context.js';
import { createHarness, type Harness, type TestTenant, jsonOf } from '../support/harness.js';
import { postEndlessBody } from '../support/streamed-body.js';

let harness: Harness;
let tenant: TestTenant;
let adminToken: string;

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  adminToken = await harness.adminToken(tenant, ['admin:event_types']);
});
afterAll(() => harness.close());

// docs/api-conventions.md#errors: "Every error: {status, message, data: {name, httpCode, message, …}}; status is fail for 4xx and error for 5xx"
describe('the error envelope', () => {
  it('a body that is not JSON is 400 ValidationError', async () => {
    const response = await harness.request(tenant, 'POST', '/v1/event_types', {
      token: adminToken,
      rawBody: '{"name": "BROKEN",',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(response.status).toBe(400);
    const body = await jsonOf(response);
    expect(body).toMatchObject({ status: 'fail', data: { name: 'ValidationError', httpCode: 400 } });
    expect(body.data.errors[0]).toMatchObject({
      property: '(body)',
      constraints: { isJson: expect.any(String) },
      children: [],
    });
  });

  it('a body failing its schema is 400 ValidationError with {property, value, constraints, children} items', async () => {
    const response = await harness.request(tenant, 'POST', '/v1/event_types', {
      token: adminToken,
      body: { name: 'lower_case', description: 'x', isPrivate: 'yes', extra: 1 },
    });
    expect(response.status).toBe(400);
    const body = await jsonOf(response);
    expect(body.status).toBe('fail');
    expect(body.data.name).toBe('ValidationError');
    const byProperty = Object.fromEntries(
      body.data.errors.map((issue: { property: string }) => [issue.property, issue]),
    );
    expect(byProperty.name).toMatchObject({
      value: 'lower_case',
      constraints: { pattern: expect.any(String) },
      children: [],
    });
    expect(byProperty.isPrivate).toMatchObject({ value: 'yes', constraints: { type: expect.any(String) } });
    expect(byProperty.extra.constraints.additionalProperties).toContain('not an accepted field');
  });

  it('a body with text PostgreSQL cannot store is 400 ValidationError naming where, on any route', async () => {
    const response = await harness.request(tenant, 'POST', '/v1/event_types', {
      token: adminToken,
      body: { name: 'NUL_IN_TEXT', description: 'a\u0000b', isPrivate: true },
    });
    expect(response.status).toBe(400);
    expect(await jsonOf(response)).toMatchObject({
      status: 'fail',
      message: 'Invalid body: description: text may not hold NUL characters or unpaired surrogates',
      data: {
        name: 'ValidationError',
        errors: [{ property: 'description', constraints: { storable: expect.any(String) }, children: [] }],
      },
    });
  });

  it('a body over 1 MB is 413 PayloadTooLargeError, refused on its Content-Length', async () => {
    const response = await harness.request(tenant, 'POST', '/v1/event_types', {
      token: adminToken,
      rawBody: JSON.stringify({ name: 'BIG', description: 'x'.repeat(1024 * 1024 + 10), isPrivate: false }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(response.status).toBe(413);
    expect(await jsonOf(response)).toMatchObject({
      status: 'fail',
      data: { name: 'PayloadTooLargeError', httpCode: 413 },
    });
  });

  it('a streamed body without Content-Length is cut off once it passes the limit, not buffered whole', async () => {
    const { response, chunksPulled } = await postEndlessBody(harness, tenant, '/v1/event_types', adminToken);
    expect(response.status).toBe(413);
    // The limit is 1 MB: 16 chunks.
    expect(chunksPulled).toBeLessThan(40);
  });

  it('a NUL character is never a 500: in a query value 400 BadRequestError, in a path 404 like any id no record has', async () => {
    const query = await harness.request(tenant, 'GET', "/v1/event_types?filter=name:(eq:'A%00B')");
    expect(query.status).toBe(400);
    expect(await jsonOf(query)).toMatchObject({ status: 'fail', data: { name: 'BadRequestError', httpCode: 400 } });
    const path = await harness.request(tenant, 'GET', '/v1/event_types/A%00B', { token: adminToken });
    expect(path.status).toBe(404);
    expect(await jsonOf(path)).toMatchObject({ status: 'fail', data: { name: 'NotFoundError', httpCode: 404 } });
  });

  it('an unknown route is 404 NotFoundError in the envelope', async () => {
    const response = await harness.request(null, 'GET', '/nowhere');
    expect(response.status).toBe(404);
    expect(await jsonOf(response)).toMatchObject({ status: 'fail', data: { name: 'NotFoundError', httpCode: 404 } });
  });

  it('an unexpected error is 500 InternalError with a fixed message and no internals', async () => {
    const app = new Hono<AppEnv>();
    app.onError(handleError);
    app.notFound(handleNotFound);
    app.use('*', requestContext(harness.context));
    app.get('/boom', () => {
      throw new Error('connection string postgres://admin:hunter2@db/secret');
    });
    const response = await app.request('/boom');
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      status: 'error',
      message: 'Internal server error',
      data: { name: 'InternalError', httpCode: 500, message: 'Internal server error' },
    });
    expect(text).not.toContain('hunter2');
  });
});
