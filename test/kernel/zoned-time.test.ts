import { describe, expect, it } from 'vitest';
import { tenantTimezone } from '../../shared/receipts/review-settings.js';
import { zonedDate, zonedInstant } from '../../shared/kernel/zoned-time.js';

// docs/receipts.md#claims: receipts are read in the tenant's `configuration.timezone`, UTC when it has none.
describe("the zone a tenant's receipts are read in", () => {
  it('is the configured zone when Intl knows it, else UTC', () => {
    expect(tenantTimezone({ timezone: 'Europe/Paris' })).toBe('Europe/Paris');
    expect(tenantTimezone({ timezone: 'Mars/Olympus' })).toBe('UTC');
    expect(tenantTimezone({ timezone: 42 })).toBe('UTC');
    expect(tenantTimezone(undefined)).toBe('UTC');
  });

  it('turns a wall-clock date and time into the instant, and back to the day', () => {
    // Paris is UTC+1 in November and UTC+2 in July.
    expect(zonedInstant('2026-11-23', '08:15:00', 'Europe/Paris').toISOString()).toBe('2026-11-23T07:15:00.000Z');
    expect(zonedInstant('2026-07-01', '08:15:00', 'Europe/Paris').toISOString()).toBe('2026-07-01T06:15:00.000Z');
    expect(zonedDate(new Date('2026-11-23T23:30:00Z'), 'Europe/Paris')).toBe('2026-11-24');
  });
});
