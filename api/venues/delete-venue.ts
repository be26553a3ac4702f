import type { AppContext } from '../../shared/context.js';
import { deleteVenue } from '../../shared/venues/venue-service.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { Deleted, DELETED_ONE } from '../routes/answer.js';
import { defineRoute } from '../routes/define-route.js';
import { access, tags, VenueIdParams } from './schema.js';

export function registerDeleteVenue(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'delete',
    path: '/v1/venues/:id',
    operationId: 'deleteVenue',
    description: 'Deletes a venue for good: receipts and tills carrying its identifiers no longer match it.',
    examples: { response: { affected: 1 } },
    summary: 'Delete a venue',
    tags,
    access,
    params: VenueIdParams,
    responses: { 200: { description: 'deleted', data: Deleted } },
    errors: [404],
    handler: async ({ params }, c) => {
      await deleteVenue(context, entityManager(c), changedBy(c), params.id);
      return DELETED_ONE;
    },
  });
}
