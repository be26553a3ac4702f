/**
 * Type-level checks that a value shows only the fields its schema declares. TypeScript checks a
 * value's fields against a declared type only in an object literal written where the type is
 * declared: not in fields spread in from another object, nor in a value a function built before.
 */

/** The keys of every member of a union. */
type KeysOf<T> = T extends unknown ? keyof T : never;
/** What the members of a union that declare `K` hold there. */
type FieldOf<Shape, K extends PropertyKey> = Shape extends unknown ? (K extends keyof Shape ? Shape[K] : never) : never;

/**
 * The fields `T` holds that `Shape` does not declare, at any depth: never when there are none.
 * TypeScript checks a returned value's fields against the declared ones only in a literal written
 * where the type is declared, not in a value a handler builds or a view function returns.
 */
type Undeclared<T, Shape, Depth extends unknown[] = []> = 0 extends 1 & T
  ? never // any: nothing to check
  : Depth['length'] extends 8
    ? never // deep enough: a recursive type (a points expression) would never end
    : T extends readonly (infer Item)[]
      ? Undeclared<Item, NonNullable<Shape> extends readonly (infer ShapeItem)[] ? ShapeItem : never, Depth>
      : T extends Date | Response
        ? never
        : T extends object
          ? string extends keyof T | KeysOf<NonNullable<Shape>>
            ? never // an open record on either side: its keys are the data's
            : Exclude<keyof T & string, KeysOf<NonNullable<Shape>>> | FieldsUndeclared<T, NonNullable<Shape>, Depth>
          : never;

type FieldsUndeclared<T, Shape, Depth extends unknown[]> = {
  [K in keyof T & KeysOf<Shape> & string]: Undeclared<T[K], FieldOf<Shape, K>, [...Depth, K]>;
}[keyof T & KeysOf<Shape> & string];

/** `unknown` when `T` shows only what `Shape` declares; otherwise a field naming what it adds, which nothing can satisfy. */
export type DeclaredOnly<T, Shape> = [Undeclared<T, Shape>] extends [never]
  ? unknown
  : { answersUndeclaredFields: Undeclared<T, Shape> };

/**
 * `value` as `Shape`, refused at compile time when it shows a field `Shape` lacks at any depth:
 * for a view built from spreads, whose return type would otherwise take the extra field in silence.
 */
export function declaredOnly<Shape>() {
  return <T extends Shape>(value: T & DeclaredOnly<T, Shape>): Shape => value;
}
