/**
 * What ends a PostgreSQL session soon after its client is gone, for work that holds locks other
 * requests wait on (the expiry sweep's lock, a batch's wallets). Without them a session whose
 * machine vanished without closing its connection keeps its locks until the kernel's TCP
 * keepalive gives up, about two hours. Waiting on a lock, the session looks for its client every
 * 2 s; idle inside a transaction, it gives up after 60 s; idle outside one, TCP keepalives (after
 * 30 s, 6 probes 10 s apart) find a vanished peer within a minute and a half.
 */
const LIVENESS_SETTINGS: Record<string, string> = {
  client_connection_check_interval: '2s',
  idle_in_transaction_session_timeout: '60s',
  tcp_keepalives_idle: '30',
  tcp_keepalives_interval: '10',
  tcp_keepalives_count: '6',
};

/**
 * One statement that applies the settings: for the current transaction only (`local`), or for
 * the session until `LIVENESS_RESET` undoes them.
 */
export function livenessStatement(local: boolean): string {
  const settings = Object.entries(LIVENESS_SETTINGS).map(
    ([name, value]) => `set_config('${name}', '${value}', ${local})`,
  );
  return `select ${settings.join(', ')}`;
}

export const LIVENESS_RESET = Object.keys(LIVENESS_SETTINGS)
  .map((name) => `reset ${name}`)
  .join('; ');
