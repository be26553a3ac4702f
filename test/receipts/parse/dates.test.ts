import { describe, expect, it } from 'vitest';
import { datesIn, saleDate } from '../../../shared/receipts/ocr/parse/dates.js';
import { timesIn } from '../../../shared/receipts/ocr/parse/times.js';

const rows = (...texts: string[]) => texts.map((text, index) => ({ text, index, confidence: 0.95 }));
const hasTime = (text: string) => timesIn(text).length > 0;

// Issue 22: "Dates and times: "31-Aug-2025", "24.10.24 13:47", "18h43", 12-hour times, US
// month-first against day-first elsewhere; a "Returns accepted until" date taken instead of the sale date."
describe('reading dates', () => {
  it.each([
    ['31-Aug-2025', '2025-08-31'],
    ['24.10.24 13:47', '2024-10-24'],
    ['Sunday 31 August 2025', '2025-08-31'],
    ['2025/08/31', '2025-08-31'],
    ['2025-08-31', '2025-08-31'],
    ['31/08/2025', '2025-08-31'],
    ['Aug 31, 2025', '2025-08-31'],
    ['Sonntag, 31. August 2025', '2025-08-31'],
    ['12. März 2025', '2025-03-12'],
    ['dimanche 31 août 2025', '2025-08-31'],
    ['5 déc. 2025', '2025-12-05'],
    ['20/11/2026', '2026-11-20'],
    ['21-11-26', '2026-11-21'],
    ['2026.11.22', '2026-11-22'],
    ['18 Nov 2026', '2026-11-18'],
    ['Saturday8June2024', '2024-06-08'],
    ['Aug 3,2025', '2025-08-03'],
    ['22.01.2410:41:15', '2024-01-22'],
    // Issue 32: month names and times as the engine misreads them.
    ['190ct 2025', '2025-10-19'],
    ['Date: 09 0ct 2025 Time:1:30 PM', '2025-10-09'],
    ['Thursday 5 SepLember 2024 07:01', '2024-09-05'],
    ['07/01/202412h42', '2024-01-07'],
    ['2025-03-2410:12', '2025-03-24'],
    // Issue 32: real receipts print dates "as 28-04-18, 28/04/2018 13:14, 28 APR 2018".
    ['10Mar201818:24', '2018-03-10'],
    ['Doc No :CS00012441 Date.28/12/2017', '2017-12-28'],
  ])('reads %s as %s', (text, date) => {
    expect(datesIn(text, true).map((found) => found.value)).toEqual([date]);
  });

  it('reads no date in a count of the kind "100CT" followed by a price', () => {
    expect(datesIn('PAPER PLATES 100CT 24.99', true)).toEqual([]);
    expect(datesIn('FOAM CUPS 200CT 12.49', true)).toEqual([]);
  });

  it('reads no date inside a longer dotted number ("Inv.1.12.05.18")', () => {
    expect(datesIn('Inv.1.12.05.18', true)).toEqual([]);
  });

  it('reads an ambiguous date in the order the locale gives', () => {
    expect(datesIn('04/05/2025', true)[0]).toMatchObject({ value: '2025-05-04', ambiguous: false });
    expect(datesIn('04/05/2025', false)[0]).toMatchObject({ value: '2025-04-05', ambiguous: false });
  });

  it('leaves out an ambiguous date 04/05/2025 with no locale evidence', () => {
    expect(datesIn('04/05/2025', undefined)[0]?.ambiguous).toBe(true);
    expect(saleDate(rows('04/05/2025'), undefined, hasTime)).toBeUndefined();
    // Unambiguous without evidence: a number over 12 is a day.
    expect(saleDate(rows('14/05/2025'), undefined, hasTime)?.value).toBe('2025-05-14');
  });

  it('prefers the sale date over "Returns accepted until" and "best before" dates', () => {
    const found = saleDate(
      rows('Returns accepted until 30/09/2025', 'Best before 02/09/2025', '31/08/2025 18:43'),
      true,
      hasTime,
    );
    expect(found).toMatchObject({ value: '2025-08-31', rowIndex: 2 });
  });

  it('prefers the date printed with a time or labelled as the date', () => {
    expect(saleDate(rows('Offer 01/09/2025', 'Date: 31/08/2025'), true, hasTime)?.value).toBe('2025-08-31');
  });

  it('leaves out a choice between different dates that nothing settles', () => {
    expect(saleDate(rows('01/09/2025', '31/08/2025'), true, hasTime)).toBeUndefined();
  });
});
