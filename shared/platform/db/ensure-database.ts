import pg from 'pg';

/**
 * docs/operations.md#running: the database named by DATABASE_URL is created if missing, so a fresh
 * machine needs no manual step. Connects to the server's `postgres` database to do it.
 */
export async function ensureDatabase(databaseUrl: string, template?: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!name) throw new Error(`DATABASE_URL names no database: ${redactUrl(databaseUrl)}`);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return;
    const quoted = client.escapeIdentifier(name);
    await client.query(
      template
        ? `CREATE DATABASE ${quoted} TEMPLATE ${client.escapeIdentifier(template)}`
        : `CREATE DATABASE ${quoted}`,
    );
  } catch (error) {
    // Two processes starting at once: the loser sees 42P04 (duplicate database), which is success.
    if ((error as { code?: string }).code !== '42P04') throw error;
  } finally {
    await client.end();
  }
}

export async function dropDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** host:port of a connection URL, without credentials, for messages and logs. */
export function redactUrl(connectionUrl: string): string {
  const url = new URL(connectionUrl);
  return `${url.hostname}:${url.port || (url.protocol.startsWith('redis') ? '6379' : '5432')}`;
}
