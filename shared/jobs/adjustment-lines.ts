import { parse, CsvError } from 'csv-parse/sync';
import { Type, type Static } from 'typebox';
import { fieldError } from '../platform/errors/app-errors.js';
import { compile, toValidationIssues } from '../platform/validation/ajv.js';
import type { AdjustmentLine } from './bulk-adjustments.js';

/** At most this many lines a bulk adjustment (docs/points.md#bulk-adjustments). */
export const MAX_ADJUSTMENT_LINES = 100_000;
export const MAX_ADJUSTMENT_POINTS = 1_000_000_000;

/** One line of a bulk adjustment, as JSON sends it and as a CSV row is read into. */
export const AdjustmentLineSchema = Type.Object(
  {
    member: Type.String({
      minLength: 1,
      maxLength: 256,
      description: 'The member: its id, its authIdentifier or its accountNumber (tried in that order).',
    }),
    points: Type.Integer({
      minimum: -MAX_ADJUSTMENT_POINTS,
      maximum: MAX_ADJUSTMENT_POINTS,
      not: { const: 0 },
      description: 'Points added (positive) or taken away (negative); never 0.',
    }),
    reason: Type.String({ minLength: 1, maxLength: 500, description: 'Why, kept on the ledger entry.' }),
  },
  { additionalProperties: false, title: 'PointsAdjustmentLine' },
);

/** The JSON body of a bulk adjustment, and of the file `tally points adjust --file` reads. */
export const BulkAdjustmentBody = Type.Object(
  {
    lines: Type.Array(AdjustmentLineSchema, {
      minItems: 1,
      maxItems: MAX_ADJUSTMENT_LINES,
      description: 'The adjustments, applied in this order; line 1 is the first.',
    }),
  },
  { additionalProperties: false, title: 'BulkAdjustmentBody' },
);

const validLine = compile<Static<typeof AdjustmentLineSchema>>(AdjustmentLineSchema);

/** The CSV form's one header. */
export const CSV_HEADER = 'member,points,reason';

const WHOLE_NUMBER = /^-?[0-9]{1,10}$/;

/**
 * A CSV upload's lines: the header `member,points,reason`, then one line per adjustment (RFC 4180
 * quoting; empty lines skipped). Line n is the n-th adjustment, the header not counted, as in the
 * JSON form. A row that is not CSV, has other than three fields or a `points` that is no whole
 * number is 400 ValidationError naming its line; the rest is checked by the same schema as JSON.
 */
export function parseAdjustmentCsv(text: string): { lines: AdjustmentLine[] } {
  let rows: string[][];
  try {
    rows = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true }) as string[][];
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const line = Math.max(1, (error as CsvError & { records: number }).records);
    throw fieldError(`line ${line}`, undefined, 'csv', `Line ${line} is not valid CSV: ${error.message}`);
  }
  const [header, ...data] = rows;
  if (!header || header.join(',').trim() !== CSV_HEADER)
    throw fieldError('(header)', header?.join(','), 'csvHeader', `The CSV must begin with the header ${CSV_HEADER}`);
  if (data.length > MAX_ADJUSTMENT_LINES)
    throw fieldError(
      'lines',
      undefined,
      'maxItems',
      `A bulk adjustment holds at most ${MAX_ADJUSTMENT_LINES} lines, not ${data.length}`,
    );
  return {
    lines: data.map((row, index) => {
      const line = index + 1;
      if (row.length !== 3)
        throw fieldError(`line ${line}`, row.join(','), 'csvFields', `Line ${line} has ${row.length} fields, not 3`);
      const [member, points, reason] = row as [string, string, string];
      if (!WHOLE_NUMBER.test(points.trim()))
        throw fieldError(
          `line ${line}`,
          points,
          'points',
          `Line ${line}: points must be a whole number, not "${points}"`,
        );
      // Spaces around a field are the file's layout (`alice, 5, why`), not part of a member's identifier.
      const value = { member: member.trim(), points: Number(points.trim()), reason: reason.trim() };
      if (!validLine(value)) {
        const faults = toValidationIssues(validLine.errors, value).flatMap((issue) =>
          Object.entries(issue.constraints).map(([, message]) => `${issue.property}: ${message}`),
        );
        throw fieldError(`line ${line}`, row.join(','), 'line', `Line ${line}: ${faults.join('; ')}`);
      }
      return value;
    }),
  };
}
