import type { DocumentedOperation } from './openapi-operations.js';

/**
 * What the examples of the OpenAPI document name, and what the server made of them. An example
 * answer names its resources by placeholder ids (the reward of the examples is `7a8b9c0d-…`, the
 * voucher code `K7QM-…`); the server answers the same request with ids of its own. Each pair is
 * learned from the answer, and the server's id takes the placeholder's place wherever a later
 * example names it: in a path parameter, in a request body. So the examples must name one resource
 * by one placeholder throughout the document, as a reader takes them to.
 */
export class ExampleWorld {
  private readonly made = new Map<unknown, unknown>();

  /** Learns from an answer of one resource; a list's order is the server's, so its items pair with nothing. */
  learnFrom(example: unknown, real: unknown): void {
    if (isObject(example)) this.learn(example, real, '');
  }

  /** The example with each placeholder it holds replaced by what the server made in its place. */
  substitute(example: unknown): unknown {
    if (Array.isArray(example)) return example.map((item) => this.substitute(item));
    if (isObject(example))
      return Object.fromEntries(Object.entries(example).map(([key, value]) => [key, this.substitute(value)]));
    return this.made.has(example) ? this.made.get(example) : example;
  }

  private learn(example: unknown, real: unknown, parent: string): void {
    if (Array.isArray(example) && Array.isArray(real)) {
      if (example.length === real.length) example.forEach((item, index) => this.learn(item, real[index], parent));
      return;
    }
    if (!isObject(example) || !isObject(real)) return;
    for (const [key, value] of Object.entries(example)) {
      if (!(key in real)) continue;
      if (namesResource(parent, key) && isPrimitive(value) && isPrimitive(real[key])) {
        if (value !== real[key]) this.made.set(value, real[key]);
      } else {
        this.learn(value, real[key], key);
      }
    }
  }
}

/** The fields whose value names a resource: `id`, `rewardId`, `jobId`, an `inviteCode`, a voucher code's `value`. */
function namesResource(parent: string, key: string): boolean {
  return /^(id|code)$|(Id|Code)$/.test(key) || (/^code$/i.test(parent) && key === 'value');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isPrimitive(value: unknown): value is string | number {
  return typeof value === 'string' || typeof value === 'number';
}

/** The example request body of an operation, and the `data` of its example answer. */
export function examplesOf({ operation }: DocumentedOperation): { request?: unknown; response?: unknown } {
  const request = operation.requestBody?.content['application/json']?.example;
  const [success] = Object.keys(operation.responses)
    .filter((status) => status.startsWith('2'))
    .sort();
  const answer = Object.values(operation.responses[success!]?.content ?? {})[0]?.example as
    { data?: unknown } | undefined;
  return { request, response: answer?.data };
}

/** The operation's path with each parameter's example as the world made it, or what it lacks to be one. */
export function examplePath(operation: DocumentedOperation, world: ExampleWorld): string | Error {
  const parameters = operation.operation.parameters ?? [];
  const exampleOf = (name: string) => parameters.find((parameter) => parameter.name === name)?.example;
  const missing = [...operation.path.matchAll(/\{([^}]+)\}/g)]
    .map(([, name]) => name!)
    .filter((name) => exampleOf(name) === undefined);
  if (missing.length) return new Error(`${operation.name}: no example of the path parameter ${missing.join(', ')}`);
  return operation.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(String(world.substitute(exampleOf(name)))),
  );
}
