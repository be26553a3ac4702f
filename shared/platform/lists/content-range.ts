/**
 * `Content-Range: <resource> <first>-<last>/<total>`, 0-based and inclusive
 * (docs/api-conventions.md#lists): the first page of 42 events at limit 10 is `event 0-9/42`; an
 * empty page is `event *` + `/<total>` (`event *` + `/0` for an empty list), as HTTP writes an
 * unsatisfied range.
 */
export function contentRange(resource: string, offset: number, count: number, total: number): string {
  if (count === 0) return `${resource} */${total}`;
  return `${resource} ${offset}-${offset + count - 1}/${total}`;
}
