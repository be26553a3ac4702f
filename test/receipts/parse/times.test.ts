import { describe, expect, it } from 'vitest';
import { saleTime, timesIn } from '../../../shared/receipts/ocr/parse/times.js';

// Issue 22: "Dates and times: ... "24.10.24 13:47", "18h43", 12-hour times".
describe('reading times', () => {
  it.each([
    ['24.10.24 13:47', '13:47:00'],
    ['18h43', '18:43:00'],
    ['4:05 PM', '16:05:00'],
    ['4:05PM', '16:05:00'],
    ['09:41 AM', '09:41:00'],
    ['12:15 AM', '00:15:00'],
    ['12:30 pm', '12:30:00'],
    ['19:05:33', '19:05:33'],
    ['4.05 p.m.', '16:05:00'],
    ['17 :20', '17:20:00'],
    ['Time:10:09 PM', '22:09:00'],
    ['22.01.2410:41:15', '10:41:15'],
  ])('reads %s as %s', (text, time) => {
    expect(timesIn(text).map((found) => found.value)).toEqual([time]);
  });

  it('reads no time in amounts or dates', () => {
    expect(timesIn('12.50')).toEqual([]);
    expect(timesIn('2025-08-31')).toEqual([]);
    expect(timesIn('13:75')).toEqual([]);
  });

  it("takes the time beside the sale's date, not opening hours", () => {
    const rows = ['Open Mon-Sat 08:00 - 20:00', 'CAFE', '31/08/2025 18:43', 'CASH 10:00'].map((text, index) => ({
      text,
      index,
      confidence: 0.9,
    }));
    expect(saleTime(rows, 2)).toEqual({ value: '18:43:00', confidence: 0.9 });
  });
});
