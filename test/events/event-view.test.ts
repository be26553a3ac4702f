import { describe, expect, it } from 'vitest';
import type { EventType } from '../../shared/event-types/event-type.entity.js';
import { acceptedEventAnswer, eventView, type EventParts } from '../../shared/events/event-view.js';
import type { User } from '../../shared/users/user.entity.js';

const at = new Date('2026-11-25T10:00:00.000Z');
const type = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'SALE_MADE',
  description: 'A sale',
  isPrivate: true,
  schema: { type: 'object', properties: { total: { type: 'number' } } },
  omitFromUserActivity: false,
  isActive: true,
  createdAt: at,
  updatedAt: at,
} as unknown as EventType;
const member = () =>
  ({
    id: '00000000-0000-4000-8000-000000000002',
    accountNumber: 7,
    authIdentifier: 'alice',
    isRestricted: false,
    profile: { givenName: 'Alice', familyName: 'Smith', emailAddress: 'alice@example.com' },
    linkedVenues: [],
    createdAt: at,
    updatedAt: at,
  }) as unknown as User;

// docs/events.md#reporting: "Response 201: `{status: 'success', data: Event}`."
describe("POST /v1/events's answer", () => {
  const parts = (user: User | null, occurredAt: Date | null = null): EventParts => ({
    id: 42,
    type,
    user,
    payload: { total: 12.5, items: [1, 2] },
    reportedAt: at,
    occurredAt,
  });

  it('is the event as every other reader shows it, to the order of its keys', () => {
    for (const event of [parts(member()), parts(member(), new Date('2026-11-24T09:00:00.000Z')), parts(null)]) {
      expect(acceptedEventAnswer(event, 'https://tally.test')).toBe(
        JSON.stringify({ status: 'success', data: eventView(event, 'https://tally.test') }),
      );
    }
  });

  it('shows a member as loaded anew, not as an earlier object of it was', () => {
    const before = member();
    acceptedEventAnswer(parts(before), 'https://tally.test');
    const after = member();
    (after.profile as Record<string, unknown>).givenName = 'Alicia';
    expect(JSON.parse(acceptedEventAnswer(parts(after), 'https://tally.test')).data.subject.profile.givenName).toBe(
      'Alicia',
    );
  });
});
