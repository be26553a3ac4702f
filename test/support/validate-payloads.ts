/**
 * Compiles a tenant schema and validates payloads with it, in a process of its own, printing one
 * JSON line of results: a test that might meet a catastrophic pattern runs it here, where a
 * backtracking engine's hours can be cut short by killing the process, which no test timeout can
 * do to synchronous code in the test's own process.
 * Input (argv[2]): {schema, payloads}.
 */
import { PayloadSchemaCompiler } from '../../shared/platform/validation/payload-schema.js';

const { schema, payloads } = JSON.parse(process.argv[2]!) as { schema: Record<string, unknown>; payloads: unknown[] };
const validate = new PayloadSchemaCompiler().compile(schema);
process.stdout.write(`${JSON.stringify(payloads.map((payload) => validate(payload)))}\n`);
