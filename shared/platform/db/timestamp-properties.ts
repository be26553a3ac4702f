import { p } from '@mikro-orm/core';

/** When a record was created and last changed, both set by the ORM: on insert, and on every update. */
export function timestampProperties() {
  return {
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  };
}
