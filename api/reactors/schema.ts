import { Type } from 'typebox';
import { ReactionSchema } from '../../shared/reactors/reaction.js';
import { changesSchema } from '../../shared/platform/validation/changes-schema.js';
import { EventTypeName } from '../event-types/schema.js';

const Conditions = Type.Record(Type.String(), Type.Unknown(), { description: 'json-rules-engine conditions over the facts event, payload and user' });

const reactorFields = {
  name: Type.String({ minLength: 1, maxLength: 128 }),
  eventType: EventTypeName,
  isActive: Type.Optional(Type.Boolean()),
  conditions: Type.Optional(Type.Union([Conditions, Type.Null()])),
  reactions: Type.Array(ReactionSchema, { minItems: 1, maxItems: 20 }),
};

export const CreateReactorBody = Type.Object(reactorFields, { additionalProperties: false });
export const UpdateReactorBody = changesSchema(CreateReactorBody);

export const ReactorResource = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  eventType: Type.String(),
  isActive: Type.Boolean(),
  conditions: Type.Union([Conditions, Type.Null()]),
  reactions: Type.Array(ReactionSchema),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

export const ReactorIdParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
