import { describe, expect, it } from 'vitest';
import type { ListSpec } from '../../shared/platform/lists/list-spec.js';
import { pageInMemory } from '../../shared/platform/lists/page-in-memory.js';
import { parseListQuery } from '../../shared/platform/lists/parse-list-query.js';

interface Item {
  id: string;
  name: string;
  rank: number | null;
  at: string;
  tags: string[];
  extra: Record<string, unknown> | null;
  owner: { name: string } | null;
}

const SPEC: ListSpec = {
  resource: 'item',
  defaultSort: 'rank',
  fields: {
    id: { type: 'uuid', filterable: true },
    name: { type: 'string', filterable: true, sortable: true },
    rank: { type: 'number', filterable: true, sortable: true },
    at: { type: 'datetime', filterable: true, sortable: true },
    tags: { type: 'array', filterable: true },
    extra: { type: 'object', filterable: true },
    'owner.name': { type: 'string', filterable: true },
  },
};

const ITEMS: Item[] = [
  {
    id: '00000000-0000-4000-8000-00000000000a',
    name: 'A_B',
    rank: 2,
    at: '2026-01-01T00:00:00.000Z',
    tags: ['x'],
    extra: { colour: 'red' },
    owner: { name: 'Ann' },
  },
  {
    id: '00000000-0000-4000-8000-00000000000b',
    name: 'AXB',
    rank: null,
    at: '2026-01-02T00:00:00.000Z',
    tags: [],
    extra: null,
    owner: null,
  },
  {
    id: '00000000-0000-4000-8000-00000000000c',
    name: '100%',
    rank: 2,
    at: '2026-01-03T00:00:00.000Z',
    tags: ['x', 'y'],
    extra: { size: 1 },
    owner: { name: 'Bob' },
  },
  {
    id: '00000000-0000-4000-8000-00000000000d',
    name: 'quoted',
    rank: 9,
    at: '2026-01-04T00:00:00.000Z',
    tags: ['y'],
    extra: {},
    owner: { name: 'ann' },
  },
];

function page(query: Record<string, string>) {
  const result = pageInMemory(ITEMS, parseListQuery(query, SPEC));
  return { names: result.items.map((item) => item.name), total: result.total };
}

const names = async (filter: string) => page({ filter, sort: 'name', order: 'ASC', limit: '100' }).names;

// docs/api-conventions.md#filters: a list held in one row (a rule set's rules) filters as a table does.
describe('a list read in memory filters as PostgreSQL does (test/lists/list-sql.test.ts)', () => {
  it('eq and neq; a missing value meets neither, but eq !n and neq !n', async () => {
    expect(await names("name:(eq:'AXB')")).toEqual(['AXB']);
    expect(await names('rank:(neq:2)')).toEqual(['quoted']);
    expect(await names('rank:(eq:!n)')).toEqual(['AXB']);
    expect(await names('owner.name:(neq:!n)')).toEqual(['100%', 'A_B', 'quoted']);
  });

  it('gt and lt on numbers, dates and text; in; ids in any case', async () => {
    expect(await names('rank:(gt:1,lt:9)')).toEqual(['100%', 'A_B']);
    expect(await names("at:(gt:'2026-01-02T00:00:00Z')")).toEqual(['100%', 'quoted']);
    expect(await names("at:(lt:'2026-01-02')")).toEqual(['A_B']);
    expect(await names("name:(gt:'B')")).toEqual(['quoted']);
    expect(await names('rank:(in:!(9,3))')).toEqual(['quoted']);
    expect(await names("id:(eq:'00000000-0000-4000-8000-00000000000C')")).toEqual(['100%']);
  });

  it('like: % is the wildcard, case does not matter, and _ is only itself', async () => {
    expect(await names("name:(like:'a_%')")).toEqual(['A_B']);
    expect(await names("name:(like:'%x%')")).toEqual(['AXB']);
    expect(await names("name:(like:'100!%')")).toEqual(['100%']);
    expect(await names("owner.name:(like:'ANN')")).toEqual(['A_B', 'quoted']);
  });

  it('has: an array holds the value, an object has the key', async () => {
    expect(await names("tags:(has:'y')")).toEqual(['100%', 'quoted']);
    expect(await names("extra:(has:'colour')")).toEqual(['A_B']);
  });
});

// docs/api-conventions.md#lists: a list read in memory keeps ties in the order it holds its items (a rule set's
// rules of equal priority in the order they run), where a table's list orders them by id.
describe('a list read in memory sorts and pages as the list helper does', () => {
  it('by the default sort, going down: missing values first, ties in the order held', () => {
    expect(page({})).toEqual({ names: ['AXB', 'quoted', 'A_B', '100%'], total: 4 });
  });

  it('going up: missing values last, ties in the order held', () => {
    expect(page({ order: 'asc' }).names).toEqual(['A_B', '100%', 'quoted', 'AXB']);
  });

  it('ties in the order held, whatever their ids', () => {
    const reversed = pageInMemory([...ITEMS].reverse(), parseListQuery({ order: 'asc' }, SPEC));
    expect(reversed.items.map((item) => item.name)).toEqual(['100%', 'A_B', 'quoted', 'AXB']);
  });

  it("text by code point (PostgreSQL's C collation), characters beyond U+FFFF after those below it", () => {
    const texts = ['😀', '～', 'z'].map((name, index) => ({ ...ITEMS[index]!, name }));
    const sorted = (query: Record<string, string>) =>
      pageInMemory(texts, parseListQuery({ sort: 'name', order: 'ASC', ...query }, SPEC)).items.map(
        (item) => item.name,
      );
    expect(sorted({})).toEqual(['z', '～', '😀']);
    expect(sorted({ filter: "name:(gt:'～')" })).toEqual(['😀']);
  });

  it('limit and skip take a page of what the filter kept; total counts all of it', () => {
    expect(page({ sort: 'at', order: 'ASC', skip: '1', limit: '2' })).toEqual({ names: ['AXB', '100%'], total: 4 });
    expect(page({ filter: 'rank:(eq:2)', skip: '1' })).toEqual({ names: ['100%'], total: 2 });
    expect(page({ skip: '10' })).toEqual({ names: [], total: 4 });
  });
});
