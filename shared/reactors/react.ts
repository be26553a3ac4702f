import { computePoints } from './points-expression.js';
import type { Reaction } from './reaction.js';
import type { StoredReaction } from '../events/stored-reaction.js';
import type { ReactorFacts } from './reactor-conditions.js';
import type { ActiveReactor } from './reactor-directory.js';

export interface ReactionOutcome {
  reactions: StoredReaction[];
  totalPoints: number;
  activatedReactors: { id: string; name: string }[];
}

/** The webhooks that WEBHOOK reactions (a reactor's, or an event's stored ones) deliver to. */
export function reactionWebhookIds(reactions: readonly (Reaction | StoredReaction)[]): string[] {
  return [...new Set(reactions.flatMap((reaction) => (reaction.type === 'WEBHOOK' ? [reaction.webhookId] : [])))];
}

/**
 * The reactors as they apply to the tenant's service subject (business proceedings with no
 * customer, docs/events.md#subjects): it has no wallet, so their POINTS and VOUCHER reactions are
 * left out, and a reactor left with no reaction does not run. Its WEBHOOK reactions run as for a
 * member.
 */
export function forServiceSubject(reactors: ActiveReactor[]): ActiveReactor[] {
  return reactors.flatMap((reactor) => {
    const reactions = reactor.reactions.filter((reaction) => reaction.type === 'WEBHOOK');
    return reactions.length > 0 ? [{ ...reactor, reactions }] : [];
  });
}

/**
 * Which reactors an event activates and what their reactions are worth: pure, so POST /events,
 * the event worker and POST /events/test_reaction compute exactly the same thing.
 */
export async function react(reactors: ActiveReactor[], facts: ReactorFacts): Promise<ReactionOutcome> {
  const outcome: ReactionOutcome = { reactions: [], totalPoints: 0, activatedReactors: [] };
  // PATH arguments read the event document: the event's fields with its payload inside.
  const document = { ...facts.event, payload: facts.payload, user: facts.user };
  for (const reactor of reactors) {
    if (reactor.conditions && !(await reactor.conditions.match(facts))) continue;
    outcome.activatedReactors.push({ id: reactor.id, name: reactor.name });
    const from = { reactorName: reactor.name, reactorId: reactor.id };
    for (const reaction of reactor.reactions) {
      if (reaction.type === 'WEBHOOK') {
        outcome.reactions.push({ type: 'WEBHOOK', webhookId: reaction.webhookId, ...from });
        continue;
      }
      // Granted as the event is registered (register-events.ts), which stores the outcome with it.
      if (reaction.type === 'VOUCHER') {
        outcome.reactions.push({ type: 'VOUCHER', rewardId: reaction.rewardId, ...from });
        continue;
      }
      const amount = computePoints(reaction.points, document);
      outcome.reactions.push({ type: 'POINTS', points: reaction.points, amount, ...from });
      outcome.totalPoints += amount;
    }
  }
  return outcome;
}
