import type { AppContext } from '../../shared/context.js';
import { actorOf } from '../../shared/audit/audit-log.js';
import { rotateSecretAudited } from '../../shared/event-types/audited-event-type-changes.js';
import { entityManager, type App } from '../app-env.js';
import { authorize } from '../middleware/authorize.js';
import { describe } from '../openapi/describe.js';
import { IdentifierParameter, RotatedSecret } from './schema.js';

export function registerRotateEventTypeSecret(app: App, context: AppContext): void {
  const access = { admin: 'admin:event_types' } as const;
  app.post(
    '/v1/event_types/:identifier/secret',
    describe({
      summary: 'Replace a private event type\'s secret; the new one is in this answer only',
      tags: ['Event types'],
      access,
      parameters: [IdentifierParameter],
      responses: { 200: { description: 'the new secret', data: RotatedSecret } },
      errors: [400, 404],
    }),
    authorize(context, access),
    async (c) => {
      const secret = await rotateSecretAudited(context, entityManager(c), actorOf(c.var.principal), c.var.tenant.id, c.req.param('identifier'));
      return c.json({ status: 'success', data: { secret } });
    },
  );
}
