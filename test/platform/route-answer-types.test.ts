import { Hono } from 'hono';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../api/app-env.js';
import { answer } from '../../api/routes/answer.js';
import { collectionRoutes } from '../../api/routes/collection-routes.js';
import { defineRoute } from '../../api/routes/define-route.js';
import type { AppContext } from '../../shared/context.js';
import { declaredOnly } from '../../shared/platform/validation/declared-fields.js';

// Issue 33: a handler answers the type of its declared response schema, and the compiler refuses
// anything else. Each @ts-expect-error below fails `npm run typecheck` the day the compiler
// accepts that handler.

const Widget = Type.Object({ id: Type.String(), name: Type.String() }, { title: 'Widget' });
const WIDGET = { id: 'w1', name: 'spanner' };
// A public route authorizes nothing and keeps no idempotency record: it reads nothing of the context.
const context = {} as AppContext;

function widgetApp() {
  return new Hono<AppEnv>();
}

const documentation = {
  method: 'get' as const,
  operationId: 'getWidget',
  summary: 'A widget',
  description: 'A widget, for the type checks.',
  tags: ['Widgets'],
  access: 'public' as const,
  responses: { 200: { description: 'the widget', data: Widget } },
  examples: { response: WIDGET },
};

describe('a route handler is typed by its response schema', () => {
  it('answers what the schema declares, in the success envelope', async () => {
    const app = widgetApp();
    defineRoute(app, context, { ...documentation, path: '/widget', handler: () => WIDGET });
    defineRoute(app, context, {
      ...documentation,
      path: '/widget/later',
      handler: async () => answer({ ...WIDGET, name: 'wrench' }, { headers: { 'X-Widget': 'yes' } }),
    });
    const now = await app.request('/widget');
    expect(await now.json()).toEqual({ status: 'success', data: WIDGET });
    const later = await app.request('/widget/later');
    expect(later.headers.get('X-Widget')).toBe('yes');
    expect(await later.json()).toEqual({ status: 'success', data: { id: 'w1', name: 'wrench' } });
  });

  it('refuses, at compile time, a field the schema lacks and a required field left out', () => {
    const app = widgetApp();
    defineRoute(app, context, {
      ...documentation,
      path: '/extra',
      // @ts-expect-error `colour` is not a field of Widget
      handler: () => ({ ...WIDGET, colour: 'red' }),
    });
    defineRoute(app, context, {
      ...documentation,
      path: '/missing',
      // @ts-expect-error Widget's `name` is required
      handler: async () => ({ id: 'w1' }),
    });
    const built = { ...WIDGET, internalNote: 'kept back' };
    defineRoute(app, context, {
      ...documentation,
      path: '/built',
      // @ts-expect-error a value built before, not a literal: `internalNote` is still not a field of Widget
      handler: () => built,
    });
    defineRoute(app, context, {
      ...documentation,
      path: '/wrong-type',
      // @ts-expect-error Widget's `id` is a string
      handler: () => answer({ id: 1, name: 'spanner' }),
    });
    // Registered all the same (the checks are the compiler's); each route is mounted once.
    expect(app.routes.filter((route) => route.method === 'GET').map((route) => route.path)).toEqual(
      expect.arrayContaining(['/extra', '/missing', '/built', '/wrong-type']),
    );
  });

  it("refuses, at compile time, a collection's view that shows a field its schema lacks, or lacks one", () => {
    const app = widgetApp();
    const collection = {
      path: '/widgets',
      noun: 'widget',
      entity: 'Widget',
      resource: Widget,
      example: WIDGET,
      params: Type.Object({ id: Type.String() }),
      tags: ['Widgets'],
      access: { admin: 'admin:rules' as const },
    };
    const shown = (record: typeof WIDGET) => ({ ...record, internalNote: 'kept back' });
    // @ts-expect-error `internalNote` is not a field of Widget
    collectionRoutes(app, context, { ...collection, view: shown });
    const { name: _name, ...nameless } = WIDGET;
    // @ts-expect-error Widget's `name` is required
    collectionRoutes(app, context, { ...collection, view: (_record: typeof WIDGET) => nameless });
    const widgets = collectionRoutes(app, context, { ...collection, view: (record: typeof WIDGET) => record });
    widgets.get({ find: async () => WIDGET });
    expect(new Set(app.routes.map((route) => `${route.method} ${route.path}`))).toEqual(new Set(['GET /widgets/:id']));
  });

  it('refuses, at compile time, a view built from spreads that shows a field its shape lacks', () => {
    const shownAsWidget = declaredOnly<typeof WIDGET>();
    const named = { name: 'spanner', internalNote: 'kept back' };
    // @ts-expect-error `internalNote`, spread in, is not a field of the widget
    const leaky = shownAsWidget({ id: 'w1', ...named });
    const { internalNote: _note, ...shown } = named;
    expect(shownAsWidget({ id: 'w1', ...shown })).toEqual(WIDGET);
    expect(leaky).toHaveProperty('internalNote');
  });
});
