import { TIMESTAMPS } from '../../shared/platform/validation/timestamps.js';
import { Type, type Static } from 'typebox';
import { TIMESTAMP_FIELDS, type ListSpec } from '../../shared/platform/lists/list-spec.js';
import { ReactionSchema } from '../../shared/reactors/reaction.js';
import { changesSchema } from '../../shared/platform/validation/changes-schema.js';
import { EventTypeName } from '../../shared/event-types/event-type-view.js';
import { uuidPath } from '../routes/request-input.js';

const Conditions = Type.Record(Type.String(), Type.Unknown(), {
  description: 'json-rules-engine conditions over the facts event, payload and user',
});

const reactorFields = {
  name: Type.String({ minLength: 1, maxLength: 128 }),
  eventType: EventTypeName,
  isActive: Type.Optional(Type.Boolean()),
  conditions: Type.Optional(Type.Union([Conditions, Type.Null()])),
  reactions: Type.Array(ReactionSchema, { minItems: 1, maxItems: 20 }),
};

export const CreateReactorBody = Type.Object(reactorFields, {
  title: 'CreateReactorBody',
  additionalProperties: false,
});
export const UpdateReactorBody = changesSchema(CreateReactorBody, { title: 'UpdateReactorBody' });

export const ReactorResource = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    eventType: Type.String(),
    isActive: Type.Boolean(),
    conditions: Type.Union([Conditions, Type.Null()]),
    reactions: Type.Array(ReactionSchema),
    ...TIMESTAMPS,
  },
  { title: 'Reactor' },
);

export const REACTOR_LIST: ListSpec = {
  resource: 'reactor',
  defaultSort: 'createdAt',
  fields: {
    name: { type: 'string', filterable: true, sortable: true },
    eventType: { type: 'string', filterable: true, sortable: true },
    isActive: { type: 'boolean', filterable: true },
    ...TIMESTAMP_FIELDS,
  },
};

export const access = { admin: 'admin:reactors' } as const;
export const tags = ['Reactors'];

/** The reaction of the examples' reactor: ten points a euro of the purchase's total. */
export const POINTS_REACTION_EXAMPLE: Static<typeof ReactionSchema> = {
  type: 'POINTS',
  points: {
    operation: 'MULTIPLY',
    arguments: [
      { type: 'PATH', value: '$.payload.total' },
      { type: 'NUMBER', value: '10' },
    ],
  },
};

/** A reactor as the examples send it, then as they show it stored. */
export const REACTOR_DEFINITION_EXAMPLE = {
  name: 'Ten points a euro',
  eventType: 'PURCHASE',
  isActive: true,
  conditions: { all: [{ fact: 'payload', path: '$.total', operator: 'greaterThan', value: 0 }] },
  reactions: [POINTS_REACTION_EXAMPLE],
} satisfies Static<typeof CreateReactorBody>;

export const REACTOR_EXAMPLE: Static<typeof ReactorResource> = {
  id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  ...REACTOR_DEFINITION_EXAMPLE,
  createdAt: '2026-01-07T08:00:00.000Z',
  updatedAt: '2026-01-07T08:00:00.000Z',
};

export const ReactorIdParams = uuidPath({ id: { description: "The reactor's id", example: REACTOR_EXAMPLE.id } });
