import type { AppContext } from '../../shared/context.js';
import { deleteRuleSet } from '../../shared/rules/rule-set-service.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { Deleted, DELETED_ONE } from '../routes/answer.js';
import { defineRoute } from '../routes/define-route.js';
import { access, RULE_SETS_PATH, RuleSetIdParams, tags } from './schema.js';

export function registerDeleteRuleSet(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'delete',
    path: `${RULE_SETS_PATH}/:id`,
    operationId: 'deleteRuleSet',
    description: 'Deletes a rule set and its rules. Receipts already decided keep their reviews.',
    examples: { response: { affected: 1 } },
    summary: 'Delete a rule set and its rules',
    tags,
    access,
    params: RuleSetIdParams,
    responses: { 200: { description: 'deleted', data: Deleted } },
    errors: [404],
    handler: async ({ params }, c) => {
      await deleteRuleSet(context, entityManager(c), changedBy(c), params.id);
      return DELETED_ONE;
    },
  });
}
