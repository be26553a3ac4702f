import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema.js';

export type { components, operations, paths, webhooks } from './schema.js';

export interface TallyClientOptions extends Omit<ClientOptions, 'headers'> {
  /** Where Tally is served, e.g. `https://loyalty.example.org` (its PUBLIC_BASE_URL). */
  baseUrl: string;
  /** The tenant's API key (`tly_…`), sent as X-Api-Key on every request. */
  apiKey: string;
  /** A bearer token for the routes that need one: an admin token, a member's token or a private event type's secret. */
  token?: string;
  /** Further headers sent on every request. */
  headers?: Record<string, string>;
}

/**
 * A typed client of the Tally API: every path, parameter, body and answer is typed from the
 * OpenAPI document (`schema.d.ts`), so a wrong field is a compile error rather than a 400.
 *
 *     const tally = createTallyClient({ baseUrl, apiKey, token });
 *     const { data, error } = await tally.POST('/v1/event_types', { body: { name: 'PURCHASE', ... } });
 */
export function createTallyClient({ apiKey, token, headers, ...options }: TallyClientOptions): Client<paths> {
  return createClient<paths>({
    ...options,
    headers: { ...headers, 'X-Api-Key': apiKey, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
  });
}
