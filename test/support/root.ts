import { fileURLToPath } from 'node:url';

/** The repository's root: where entry points run from. Free of test hooks, so the benchmark may import it. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
