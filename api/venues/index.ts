import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { changesSchema } from '../../shared/platform/validation/changes-schema.js';
import type { ListSpec } from '../../shared/platform/lists/list-spec.js';
import { Venue } from '../../shared/venues/venue.entity.js';
import { createVenue, deleteVenue, findVenue, updateVenue, venueView } from '../../shared/venues/venue-service.js';
import { entityManager, type App } from '../app-env.js';
import { listParameters, listResponse } from '../lists/list-route.js';
import { authorize } from '../middleware/authorize.js';
import { createsRecordOf, idempotent } from '../middleware/idempotency.js';
import { describe } from '../openapi/describe.js';
import { jsonBody } from '../validation/json-body.js';

const Position = Type.Object(
  { latitude: Type.Number({ minimum: -90, maximum: 90 }), longitude: Type.Number({ minimum: -180, maximum: 180 }) },
  { additionalProperties: false },
);

const CreateVenueBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 256 }),
    identifiers: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 100, description: 'location identifiers receipts and tills carry (matched without regard to case)' })),
    position: Type.Optional(Type.Union([Position, Type.Null()])),
    radiusMeters: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 100, description: 'how far from position a submission may be made' })),
  },
  { additionalProperties: false },
);
const UpdateVenueBody = changesSchema(CreateVenueBody);

const VenueResource = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  identifiers: Type.Array(Type.String()),
  position: Type.Union([Position, Type.Null()]),
  radiusMeters: Type.Integer(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

const VenueIdParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };

const VENUE_LIST: ListSpec = {
  resource: 'venue',
  defaultSort: 'createdAt',
  fields: {
    name: { type: 'string', filterable: true, sortable: true },
    createdAt: { type: 'datetime', filterable: true, sortable: true },
    updatedAt: { type: 'datetime', filterable: true, sortable: true },
  },
};

/** Venues feed the `venueMatches` rule operator, so the rule authors (`admin:rules`) keep them. */
const access = { admin: 'admin:rules' } as const;
const tags = ['Venues'];

/** `/v1/venues` (decisions.md §9): where transactions happen, for `venueMatches`. */
export function registerVenueRoutes(app: App, context: AppContext): void {
  app.post(
    '/v1/venues',
    describe({ summary: 'Add a venue', tags, access, body: CreateVenueBody, responses: { 201: { description: 'created', data: VenueResource } }, errors: [422] }),
    authorize(context, access),
    idempotent(context, createsRecordOf(Venue, venueView)),
    jsonBody(CreateVenueBody),
    async (c) => {
      const venue = await createVenue(entityManager(c), context.venues, c.var.tenant.id, c.req.valid('json'), c.var.reservedId);
      return c.json({ status: 'success', data: venueView(venue) }, 201);
    },
  );
  app.get(
    '/v1/venues',
    describe({ summary: 'List venues', tags, access, parameters: listParameters(VENUE_LIST), responses: { 200: { description: 'a page of venues', data: Type.Array(VenueResource) } }, errors: [400] }),
    authorize(context, access),
    (c) => listResponse(c, Venue, VENUE_LIST, venueView),
  );
  app.get(
    '/v1/venues/:id',
    describe({ summary: 'Read a venue', tags, access, parameters: [VenueIdParameter], responses: { 200: { description: 'the venue', data: VenueResource } }, errors: [404] }),
    authorize(context, access),
    async (c) => c.json({ status: 'success', data: venueView(await findVenue(entityManager(c), c.var.tenant.id, c.req.param('id'))) }),
  );
  app.patch(
    '/v1/venues/:id',
    describe({ summary: 'Change a venue', tags, access, parameters: [VenueIdParameter], body: UpdateVenueBody, responses: { 200: { description: 'the changed venue', data: VenueResource } }, errors: [404] }),
    authorize(context, access),
    jsonBody(UpdateVenueBody),
    async (c) => {
      const venue = await updateVenue(entityManager(c), context.venues, c.var.tenant.id, c.req.param('id'), c.req.valid('json'));
      return c.json({ status: 'success', data: venueView(venue) });
    },
  );
  app.delete(
    '/v1/venues/:id',
    describe({ summary: 'Delete a venue', tags, access, parameters: [VenueIdParameter], responses: { 200: { description: 'deleted', data: Type.Object({ affected: Type.Integer() }) } }, errors: [404] }),
    authorize(context, access),
    async (c) => {
      await deleteVenue(entityManager(c), context.venues, c.var.tenant.id, c.req.param('id'));
      return c.json({ status: 'success', data: { affected: 1 } });
    },
  );
}
