import Big from 'big.js';
import { selectJsonPath } from '../platform/json-path/json-path.js';
import type { PointsArgument, PointsExpression } from '../kernel/points-expression.js';
import { MAX_REACTION_POINTS } from './reaction.js';

/**
 * Computes a POINTS reaction (docs/events.md#points-arithmetic): exact decimal arithmetic through
 * the whole expression, rounded down to a whole number once at the end. PATH arguments are JSONPath
 * over the event document, evaluated with scripts disabled (docs/dependencies.md: jsonpath-plus's eval is a
 * known RCE surface). A path that finds no number makes the whole reaction worth nothing: the
 * reaction cannot be computed, and guessing would grant points nobody configured. For the same
 * reason a reaction worth more than MAX_REACTION_POINTS is worth nothing, rather than that maximum.
 */
export function computePoints(expression: PointsExpression, document: object): number {
  const value = evaluate(expression, document);
  if (value === undefined || value.lte(0)) return 0;
  const points = value.round(0, Big.roundDown);
  return points.gt(MAX_REACTION_POINTS) ? 0 : points.toNumber();
}

function evaluate(expression: PointsExpression, document: object): Big | undefined {
  const values: Big[] = [];
  for (const argument of expression.arguments) {
    const value = argumentValue(argument, document);
    if (value === undefined) return undefined;
    values.push(value);
  }
  const [first, ...rest] = values;
  if (!first) return undefined;
  switch (expression.operation) {
    case 'SUM':
      return rest.reduce((total, value) => total.plus(value), first);
    case 'MULTIPLY':
      return rest.reduce((product, value) => product.times(value), first);
    case 'MIN':
      return rest.reduce((least, value) => (value.lt(least) ? value : least), first);
    case 'MAX':
      return rest.reduce((most, value) => (value.gt(most) ? value : most), first);
  }
}

function argumentValue(argument: PointsArgument, document: object): Big | undefined {
  switch (argument.type) {
    case 'NUMBER':
      return new Big(argument.value);
    case 'EXPRESSION':
      return evaluate(argument.value, document);
    case 'PATH':
      return toBig(readPath(argument.value, document));
  }
}

/** The first value a JSONPath selects, with script evaluation off. */
export function readPath(path: string, document: object): unknown {
  return selectJsonPath(path, document)[0];
}

function toBig(value: unknown): Big | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return new Big(value);
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) return new Big(value.trim());
  return undefined;
}
