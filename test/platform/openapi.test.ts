import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type Json, jsonOf } from '../support/harness.js';
import {
  operationsOf,
  resolved,
  type Media,
  type Operation,
  type Parameter,
  type Response,
  type Schema,
} from '../support/openapi-operations.js';

let harness: Harness;

beforeAll(async () => {
  harness = await createHarness();
});
afterAll(() => harness.close());

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
    expect(create.security).toEqual([{ ApiKey: [], AdminToken: ['admin:event_types'] }]);
    const body = resolved(document, create.requestBody!.content['application/json']!.schema) as Schema;
    expect(Object.keys(body.properties!)).toEqual(
      expect.arrayContaining(['name', 'description', 'isPrivate', 'schema']),
    );
    expect(Object.keys(create.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '403', '413', '429', '500']),
    );
    const list = document.paths['/v1/event_types'].get as Operation;
    expect(list.security).toEqual([{ ApiKey: [] }]);
    expect(list.parameters!.map((parameter) => (resolved(document, parameter) as Parameter).name)).toEqual([
      'limit',
      'skip',
      'sort',
      'order',
      'filter',
      'X-Request-Id',
    ]);
    expect(document.components.securitySchemes.ApiKey).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-Api-Key',
    });
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

/** A schema with every `$ref` replaced by what it names (the document's schemas do not recurse). */
function inlined(document: Json, schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map((item) => inlined(document, item));
  if (schema === null || typeof schema !== 'object') return schema;
  const target = resolved(document, schema);
  if (target !== schema) return inlined(document, target);
  return Object.fromEntries(Object.entries(schema).map(([key, child]) => [key, inlined(document, child)]));
}

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
          open.push(...openObjectsIn(inlined(document, media.schema), `${method.toUpperCase()} ${path} ${mediaType}`));
        }
      }
    }
    expect(bodies).toBeGreaterThan(20);
    expect(open).toEqual([]);
  });
});

/** Every `description`, `summary` and example text of the document, with where it is. */
function textsIn(node: unknown, where: string): [string, string][] {
  if (typeof node === 'string') return [[where, node]];
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, child]) => textsIn(child, `${where}/${key}`));
}

// Issue 19: "63 operations and 0 examples, 0 operation descriptions, 80 parameters without a
// description; Idempotency-Key, Content-Range, RateLimit-*, Retry-After, X-Request-Id not declared;
// no webhooks section; everything inline except the error envelope; internal references shown to users."
describe('the API reference teaches', () => {
  let document: Json;
  beforeAll(async () => {
    document = await jsonOf(await harness.request(null, 'GET', '/v1/openapi.json'));
  });

  it('names every operation for a client generator, describes it and shows an example request and answer', () => {
    const faults: string[] = [];
    const ids = new Set<string>();
    let examples = 0;
    for (const { name, operation } of operationsOf(document)) {
      if (!operation.operationId || !/^[a-z][a-zA-Z]+$/.test(operation.operationId))
        faults.push(`${name}: operationId ${operation.operationId}`);
      else if (ids.has(operation.operationId)) faults.push(`${name}: operationId ${operation.operationId} twice`);
      ids.add(operation.operationId ?? '');
      if (!operation.description || operation.description.length < 20) faults.push(`${name}: no description`);
      const request = operation.requestBody?.content['application/json'];
      if (request && request.example === undefined) faults.push(`${name}: no request example`);
      const [success] = Object.keys(operation.responses)
        .filter((status) => status.startsWith('2'))
        .sort();
      const answer = Object.values(operation.responses[success!]?.content ?? {})[0];
      if (answer?.example === undefined) faults.push(`${name}: no example answer`);
      else examples += 1;
    }
    expect(faults).toEqual([]);
    expect(ids.size).toBeGreaterThanOrEqual(63);
    expect(examples).toBe(ids.size);
    expect([...ids]).toEqual(expect.arrayContaining(['listEventTypes', 'createRuleSetRule', 'reportEvent']));
  });

  it('describes every parameter and declares the request and answer headers', () => {
    const faults: string[] = [];
    for (const { name, operation } of operationsOf(document)) {
      const parameters = (operation.parameters ?? []).map((parameter) => resolved(document, parameter) as Parameter);
      for (const parameter of parameters)
        if (!parameter.description) faults.push(`${name}: parameter ${parameter.name} has no description`);
      const headers = parameters.filter((parameter) => parameter.in === 'header').map((parameter) => parameter.name);
      if (!headers.includes('X-Request-Id')) faults.push(`${name}: no X-Request-Id`);
      for (const [status, response] of Object.entries(operation.responses)) {
        const answer = resolved(document, response) as Response;
        if (!answer.headers?.['X-Request-Id']) faults.push(`${name} ${status}: no X-Request-Id`);
        if (
          status === '429' &&
          !['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'].every(
            (h) => answer.headers?.[h],
          )
        )
          faults.push(`${name} 429: no Retry-After or RateLimit-*`);
        if (status.startsWith('2') && parameters.some((p) => p.name === 'skip') && !answer.headers?.['Content-Range'])
          faults.push(`${name} ${status}: a list without Content-Range`);
      }
    }
    expect(faults).toEqual([]);
    const creating = document.paths['/v1/event_types'].post as Operation;
    expect(creating.parameters!.map((parameter) => (resolved(document, parameter) as Parameter).name)).toContain(
      'Idempotency-Key',
    );
    expect(document.paths['/v1/event_types'].get.responses['200'].headers).toHaveProperty('RateLimit-Remaining');
  });

  it('gives every body and answer a named schema, never an inline anonymous object', () => {
    const inline: string[] = [];
    for (const { name, operation } of operationsOf(document)) {
      const media = [
        ...Object.entries(operation.requestBody?.content ?? {}).map(
          ([type, content]) => [`body ${type}`, content] as const,
        ),
        ...Object.entries(operation.responses).flatMap(([status, response]) =>
          Object.entries((resolved(document, response) as Response).content ?? {}).map(
            ([type, content]) => [`${status} ${type}`, content] as const,
          ),
        ),
      ];
      for (const [where, content] of media)
        if (!content.schema.$ref && content.schema.type !== 'string') inline.push(`${name} ${where}`);
    }
    expect(inline).toEqual([]);
    expect(document.components.schemas.EventType.properties).toHaveProperty('name');
  });

  it('shows examples that their own schemas accept', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ $id: 'https://tally.invalid/openapi.json', components: document.components });
    const refusals: string[] = [];
    const check = (where: string, media: Media | undefined) => {
      if (!media?.schema.$ref || media.example === undefined) return;
      const validate = ajv.compile({ $ref: `https://tally.invalid/openapi.json${media.schema.$ref}` });
      if (!validate(media.example)) refusals.push(`${where}: ${ajv.errorsText(validate.errors)}`);
    };
    for (const { name, operation } of operationsOf(document)) {
      check(`${name} body`, operation.requestBody?.content['application/json']);
      for (const [status, response] of Object.entries(operation.responses))
        check(`${name} ${status}`, (resolved(document, response) as Response).content?.['application/json']);
    }
    check('webhook', document.webhooks.eventRegistered.post.requestBody.content['application/json']);
    expect(refusals).toEqual([]);
  });

  it('explains the API in its description, shows the webhooks with how to verify them, and cites no internal file', () => {
    const overview: string = document.info.description;
    for (const topic of [
      'X-Api-Key',
      'Bearer',
      'ValidationError',
      'Content-Range',
      'filter',
      'Idempotency-Key',
      'Retry-After',
    ])
      expect(overview).toContain(topic);
    const webhook = document.webhooks.eventRegistered.post;
    expect(webhook.description).toContain('webhook-signature');
    expect(webhook.parameters.map((parameter: Parameter) => parameter.name)).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ]);
    const internal = textsIn(document, '').filter(([, text]) =>
      /decisions\.md|§|\bspec\b|docs\/[\w-]+\.md|\.ts\b/.test(text),
    );
    expect(internal).toEqual([]);
  });
});
