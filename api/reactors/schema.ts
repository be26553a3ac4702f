import { Type } from 'typebox';
import type { ListSpec } from '../../shared/platform/lists/list-spec.js';
import { ReactionSchema } from '../../shared/reactors/reaction.js';
import { changesSchema } from '../../shared/platform/validation/changes-schema.js';
import { EventTypeName } from '../event-types/schema.js';
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
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { title: 'Reactor' },
);

export const ReactorIdParams = uuidPath({ id: "The reactor's id" });

export const REACTOR_LIST: ListSpec = {
  resource: 'reactor',
  defaultSort: 'createdAt',
  fields: {
    name: { type: 'string', filterable: true, sortable: true },
    eventType: { type: 'string', filterable: true, sortable: true },
    isActive: { type: 'boolean', filterable: true },
    createdAt: { type: 'datetime', filterable: true, sortable: true },
    updatedAt: { type: 'datetime', filterable: true, sortable: true },
  },
};

export const access = { admin: 'admin:reactors' } as const;
export const tags = ['Reactors'];
