import { ValidationError } from '../errors/app-errors.js';

/** A 400 ValidationError about one query parameter or filter field, named in message and item. */
export function listError(property: string, value: unknown, rule: string, message: string): ValidationError {
  return new ValidationError(message, [{ property, value, constraints: { [rule]: message }, children: [] }]);
}
