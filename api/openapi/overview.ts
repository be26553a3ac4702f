/**
 * The document's own description: what every route shares, for an integrator reading the
 * reference without the repository. It says in the reference's words what docs/api-conventions.md
 * says for the project; a change of those rules changes both.
 */
export const OVERVIEW = `Tally is a multi-tenant loyalty platform. Your systems report what members do (events, orders,
receipts); reactors you configure turn events into points, webhook deliveries and vouchers; every point is an
entry in an append-only ledger, read as a member's wallet.

## Authentication

Every \`/v1\` request carries the tenant's API key in \`X-Api-Key\` (keys start \`tly_\`). A missing or
unknown key is \`403 InvalidApiKeyError\`; an address that keeps sending wrong keys is answered
\`429\` for a while instead. The operational routes (\`/health\`, \`/ready\`, \`/metrics\`) need no key.

Some routes also need a bearer token in \`Authorization: Bearer <token>\`:

- **Admin tokens** are JWTs minted with \`tally token admin\`, bound to one tenant and carrying
  scopes, for example \`admin:event_types\`. Each operation lists the scope it needs; \`admin:X\`
  also grants \`read:X\`.
- **End-user tokens** are issued by the tenant's identity provider (HS256 with a shared key, or
  RS256 with a JWKS address) and speak for one member: the token's \`sub\` is the member's
  \`authIdentifier\`. The \`/v1/users/me\` routes take one.
- **Private event types** are reported with \`Bearer <the type's secret>\`.

Each operation's security names what it takes: \`AdminToken\` with its scope, \`MemberToken\`, or
\`EventTypeSecret\`, each beside \`ApiKey\`; an operation that lists two takes either.

A missing, invalid, expired or under-scoped token is \`401 UnauthorizedError\`.

## Answers and errors

A success is \`{"status": "success", "data": …}\`. A failure is
\`{"status": "fail" | "error", "message": "…", "data": {"name": "ValidationError", "httpCode": 400, …}}\`:
\`fail\` for a 4xx, \`error\` for a 5xx. A body that breaks its schema is \`400 ValidationError\`
with \`data.errors\`, one item per field (\`property\`, \`value\`, \`constraints\`). An id of
another tenant is \`404\`, exactly like an id that does not exist, and so is an id in the path
outside the form its parameter declares (an id that is no uuid, a number past its range).
Request bodies are closed: a field the schema does not name is refused. Bodies are at most 1 MB
(300 kB for \`POST /v1/events\` and its dry run, 6 MB for \`POST /v1/rewards/{id}/codes\`, 16 MB
for \`POST /v1/points-adjustments/bulk\`); more is \`413\`.

Every JSON answer is \`Content-Type: application/json; charset=utf-8\`.

Every answer carries \`X-Request-Id\`: send your own (up to 128 letters, digits, \`.\`, \`:\`,
\`_\` or \`-\`) to find your request in our logs, or read the one we made.

## Lists, pagination and filters

A list takes \`limit\` (1 to 1000, default 10), \`skip\` (default 0), \`sort\` (one of the fields the
list names), \`order\` (\`ASC\` or \`DESC\`; newest first by default) and \`filter\`. The answer's
\`Content-Range: <resource> <first>-<last>/<total>\` says where the page sits, 0-based and
inclusive: the first page of 42 events at \`limit=10\` is \`event 0-9/42\`, an empty list
\`event */0\`. Ask for the next page with \`skip=10\` until \`last + 1\` reaches \`total\`.

\`filter\` is O-Rison: \`field:(operator:value)\`, several conditions separated by commas, all of
which must hold. Operators: \`eq\`, \`neq\`, \`gt\`, \`lt\`, \`in\` (a list, \`!('a','b')\`), \`has\` (an
array holds the value, or an object has the key) and \`like\` (\`%\` is the wildcard,
case-insensitive). Strings go in single quotes, numbers bare, \`!t\`/\`!f\` are true and false,
\`!n\` is null, dates are ISO 8601 strings. Example: \`filter=type.name:(eq:'PURCHASE'),reportedAt:(gt:'2026-01-01T00:00:00Z')\`.
A field the list does not name, or a malformed filter, is \`400\`.

## Idempotency

Every creating \`POST\` takes an \`Idempotency-Key\` header (1 to 255 visible ASCII characters; a
uuid is a good choice). Retrying with the same key and body within 24 hours answers the first
answer again, with \`Idempotent-Replayed: true\`, and creates nothing twice, even when the first
request never got its answer to you. The same key with another body is \`422\`; a retry while the
first request is still being processed waits for it, or is told \`409\` to retry later.

## Rate limits

Each API key may make 100 requests a second, with bursts of up to 400 (a tenant may be given its
own). Every \`/v1\` answer carries \`RateLimit-Limit\`, \`RateLimit-Remaining\` and
\`RateLimit-Reset\` (seconds until the bucket is full again). Over the limit, the answer is
\`429 TooManyRequestsError\` with \`Retry-After\` in seconds: wait that long before retrying.

## Webhooks

A webhook subscription (\`POST /v1/webhooks\`) receives each registered event of the types it
takes as a signed \`POST\`; see the \`eventRegistered\` webhook below for the body and for how to
verify its signature.
`;
