import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, jsonOf } from '../support/harness.js';

let harness: Harness;

beforeAll(async () => {
  harness = await createHarness();
});
afterAll(() => harness.close());

interface Operation {
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
  responses: Record<string, unknown>;
  parameters?: { name: string }[];
}

// docs/operations.md#operator-endpoints: "GET /v1/openapi.json (OpenAPI 3.1 of every route), GET /docs (a rendered reference of it)"
describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 and lists every route of the app with its bodies, responses and security', async () => {
    const response = await harness.request(null, 'GET', '/v1/openapi.json');
    expect(response.status).toBe(200);
    const document = await jsonOf(response);
    expect(document.openapi).toBe('3.1.0');

    const documented = Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(
      ([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const routes = harness.app.routes
      .filter((route) => route.method !== 'ALL')
      .map((route) => `${route.method} ${route.path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}')}`)
      // The reference page and its assets, and the document itself, are not API operations.
      .filter((route) => !route.startsWith('GET /docs') && route !== 'GET /v1/openapi.json');
    expect(new Set(documented)).toEqual(new Set(routes));

    const create = document.paths['/v1/event_types'].post as Operation;
    expect(create.security).toEqual([{ ApiKey: [], BearerAuth: ['admin:event_types'] }]);
    expect(Object.keys(create.requestBody!.content['application/json']!.schema.properties!)).toEqual(
      expect.arrayContaining(['name', 'description', 'isPrivate', 'schema']),
    );
    expect(Object.keys(create.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '403', '413', '429', '500']),
    );
    const list = document.paths['/v1/event_types'].get as Operation;
    expect(list.security).toEqual([{ ApiKey: [] }]);
    expect(list.parameters!.map((parameter) => parameter.name)).toEqual(['limit', 'skip', 'sort', 'order', 'filter']);
    expect(document.components.securitySchemes.ApiKey).toEqual({ type: 'apiKey', in: 'header', name: 'X-Api-Key' });
    expect((document.paths['/health'].get as Operation).security).toEqual([]);
  });

  it('GET /docs renders it with assets served locally, never from a CDN', async () => {
    const page = await harness.request(null, 'GET', '/docs');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('/docs/reference.js');
    expect(html).not.toMatch(/https?:\/\//);
    const script = await harness.request(null, 'GET', '/docs/swagger-ui-bundle.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
  });

  // Issue 17, low: "/docs sends no Content-Security-Policy, JSON answers no X-Content-Type-Options: nosniff."
  it("GET /docs sends a Content-Security-Policy that runs only this origin's scripts, and runs no inline script", async () => {
    const page = await harness.request(null, 'GET', '/docs');
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy.match(/script-src[^;]*/)![0]).not.toContain('unsafe');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await page.text()).not.toMatch(/<script>/);
    const script = await harness.request(null, 'GET', '/docs/reference.js');
    expect(script.status).toBe(200);
    expect(await script.text()).toContain("SwaggerUIBundle({ url: '/v1/openapi.json'");
  });

  it('answers carry X-Content-Type-Options: nosniff, errors and operations alike', async () => {
    for (const path of ['/health', '/v1/openapi.json', '/v1/event_types', '/v1/nowhere']) {
      expect((await harness.request(null, 'GET', path)).headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });
});

/** Where a request body schema declares named fields but lets others through. */
function openObjectsIn(schema: unknown, where: string): string[] {
  if (schema === null || typeof schema !== 'object') return [];
  if (Array.isArray(schema)) return schema.flatMap((item, index) => openObjectsIn(item, `${where}[${index}]`));
  const node = schema as Record<string, unknown>;
  const own = node.properties !== undefined && node.additionalProperties !== false ? [where] : [];
  return [...own, ...Object.entries(node).flatMap(([key, child]) => openObjectsIn(child, `${where}.${key}`))];
}

// Issue 17: "Every request body schema is closed (no additional properties), update schemas
// included; a test walks the OpenAPI document and fails on any open request body." A map with no
// named fields (an event's payload, profile attributes, rule conditions) is a value, not a body
// of fields, and stays open.
describe('request bodies in the OpenAPI document', () => {
  it('close every object that names its fields, on every route', async () => {
    const document = await jsonOf(await harness.request(null, 'GET', '/v1/openapi.json'));
    const open: string[] = [];
    let bodies = 0;
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [mediaType, media] of Object.entries(operation.requestBody?.content ?? {})) {
          bodies += 1;
          open.push(...openObjectsIn(media.schema, `${method.toUpperCase()} ${path} ${mediaType}`));
        }
      }
    }
    expect(bodies).toBeGreaterThan(20);
    expect(open).toEqual([]);
  });
});
