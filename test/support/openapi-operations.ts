import type { Json } from './harness.js';

export interface Schema {
  $ref?: string;
  type?: string;
  properties?: Record<string, unknown>;
}
export interface Media {
  schema: Schema;
  example?: unknown;
}
/** What a parameter's schema may say of the values it takes. */
export interface ParameterSchema {
  type?: string;
  format?: string;
  pattern?: string;
  maxLength?: number;
  maximum?: number;
  anyOf?: ParameterSchema[];
}
export interface Parameter {
  $ref?: string;
  name: string;
  in: string;
  description?: string;
  example?: unknown;
  schema?: ParameterSchema;
}
export interface Response {
  $ref?: string;
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, Media>;
}
export interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, Response>;
  parameters?: Parameter[];
}

/** One operation of the document: `name` is `METHOD /path`, the path as the document writes it (`{id}`). */
export interface DocumentedOperation {
  name: string;
  method: string;
  path: string;
  operation: Operation;
}

/** What a local `$ref` (`#/components/…`) points at, or the node itself when it is no reference. */
export function resolved(document: Json, node: unknown): unknown {
  const reference = (node as { $ref?: string } | undefined)?.$ref;
  if (!reference) return node;
  return reference
    .slice(2)
    .split('/')
    .reduce((at: Json, key) => at?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], document);
}

/** Every operation of the document, in its order. */
export function operationsOf(document: Json): DocumentedOperation[] {
  return Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      name: `${method.toUpperCase()} ${path}`,
      method: method.toUpperCase(),
      path,
      operation,
    })),
  );
}
