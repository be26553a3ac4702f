import { isDeepStrictEqual } from 'node:util';

type Node = Record<string, unknown>;

interface Document {
  paths?: unknown;
  webhooks?: unknown;
  components?: Node;
}

/** The parts of `components` that hold schemas of their own (an error answer's envelope, a header's type). */
const COMPONENTS_WITH_SCHEMAS = ['responses', 'parameters', 'headers'] as const;

/**
 * Moves every named schema (one with a `title`, given where its TypeBox schema is declared) into
 * `components.schemas` under that name, leaving a `$ref` where it was, at any depth. A generated
 * client then gets one type per name (`EventType`, `CreateEventTypeBody`) instead of an anonymous
 * type per use. Two different schemas under one name are a mistake in the source: refused here,
 * so the document never shows one of them silently.
 */
export function liftNamedSchemas<D extends Document>(document: D): D {
  const named = new Map<string, unknown>();

  const lift = (node: unknown, insideSchema: boolean): unknown => {
    if (Array.isArray(node)) return node.map((item) => lift(item, insideSchema));
    if (node === null || typeof node !== 'object') return node;
    const object = node as Node;
    const children = Object.fromEntries(
      // Only a schema's title names it: below `example`, a title is data.
      Object.entries(object).map(([key, child]) => [
        key,
        key === 'example' || key === 'examples' ? child : lift(child, insideSchema || key === 'schema'),
      ]),
    );
    const title = insideSchema ? object.title : undefined;
    if (typeof title !== 'string') return children;
    if (named.has(title) && !isDeepStrictEqual(named.get(title), children))
      throw new Error(`two different schemas are named ${title}: give one of them another title`);
    named.set(title, children);
    return { $ref: `#/components/schemas/${title}` };
  };

  const components: Node = { ...document.components };
  for (const key of COMPONENTS_WITH_SCHEMAS) if (components[key]) components[key] = lift(components[key], false);
  const lifted = {
    ...document,
    ...(document.paths ? { paths: lift(document.paths, false) } : {}),
    ...(document.webhooks ? { webhooks: lift(document.webhooks, false) } : {}),
  };
  const schemas = Object.fromEntries([...named].sort(([a], [b]) => a.localeCompare(b)));
  return { ...lifted, components: { ...components, schemas } };
}
