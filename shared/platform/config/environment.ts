/** What a process is started with: its environment variables. */
export type Environment = Record<string, string | undefined>;

/** A setting that is missing or cannot be used: the process does not start, and says which. */
export class ConfigError extends Error {}

/**
 * docs/operations.md#configuration: development is NODE_ENV unset, `development` or `test`; anything
 * else (`production`, `staging`…) is a deployment, where what must be set is refused when missing.
 */
export function isDevelopment(env: Environment): boolean {
  return [undefined, '', 'development', 'test'].includes(env.NODE_ENV);
}
