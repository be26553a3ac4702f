import { TIMESTAMPS } from '../../shared/platform/validation/timestamps.js';
import { Type } from 'typebox';
import { TIMESTAMP_FIELDS, type ListSpec } from '../../shared/platform/lists/list-spec.js';
import { changesSchema } from '../../shared/platform/validation/changes-schema.js';
import { uuidPath } from '../routes/request-input.js';

const Position = Type.Object(
  { latitude: Type.Number({ minimum: -90, maximum: 90 }), longitude: Type.Number({ minimum: -180, maximum: 180 }) },
  { additionalProperties: false },
);

export const CreateVenueBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 256 }),
    identifiers: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
        maxItems: 100,
        description: 'location identifiers receipts and tills carry (matched without regard to case)',
      }),
    ),
    position: Type.Optional(Type.Union([Position, Type.Null()])),
    radiusMeters: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 100_000,
        default: 100,
        description: 'how far from position a submission may be made',
      }),
    ),
  },
  { additionalProperties: false, title: 'CreateVenueBody' },
);
export const UpdateVenueBody = changesSchema(CreateVenueBody, { title: 'UpdateVenueBody' });

export const VenueResource = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    identifiers: Type.Array(Type.String()),
    position: Type.Union([Position, Type.Null()]),
    radiusMeters: Type.Integer(),
    ...TIMESTAMPS,
  },
  { title: 'Venue' },
);

export const VENUE_LIST: ListSpec = {
  resource: 'venue',
  defaultSort: 'createdAt',
  fields: {
    name: { type: 'string', filterable: true, sortable: true },
    ...TIMESTAMP_FIELDS,
  },
};

/** Venues feed the `venueMatches` rule operator, so the rule authors (`admin:rules`) keep them. */
export const access = { admin: 'admin:rules' } as const;
export const tags = ['Venues'];

/** A venue as the examples show it: added, read, listed and changed. */
export const VENUE_EXAMPLE = {
  id: '7e8f9a0b-1c2d-4e3f-8a4b-5c6d7e8f9a0b',
  name: 'Main Street',
  identifiers: ['STORE-12'],
  position: { latitude: 51.5072, longitude: -0.1276 },
  radiusMeters: 150,
  createdAt: '2026-01-09T09:00:00.000Z',
  updatedAt: '2026-01-09T09:00:00.000Z',
};

export const VenueIdParams = uuidPath({ id: { description: "The venue's id", example: VENUE_EXAMPLE.id } });
