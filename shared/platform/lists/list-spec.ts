/** The value types a list field can have; each decides which operators and values it accepts. */
export type ListFieldType = 'string' | 'number' | 'boolean' | 'datetime' | 'uuid' | 'array' | 'object';

export interface ListField {
  type: ListFieldType;
  /** The entity property path, dotted for relations or JSON members; defaults to the public name. */
  path?: string;
  filterable?: boolean;
  sortable?: boolean;
}

/** One list endpoint's allow-list (docs/api-conventions.md#lists and #filters): nothing outside it is filtered or sorted. */
export interface ListSpec {
  /** The resource word of `Content-Range`, e.g. `event`. */
  resource: string;
  /** Public field name (may be dotted, e.g. `subject.authIdentifier`) → what it is. */
  fields: Record<string, ListField>;
  defaultSort: string;
}

/** One page of a list, and how many items the filter keeps over every page (for `Content-Range`). */
export interface Page<Item> {
  items: Item[];
  total: number;
}

/** A list's createdAt and updatedAt, filterable and sortable, as every resource's list has them. */
export const TIMESTAMP_FIELDS = {
  createdAt: { type: 'datetime', filterable: true, sortable: true },
  updatedAt: { type: 'datetime', filterable: true, sortable: true },
} as const satisfies Record<string, ListField>;
