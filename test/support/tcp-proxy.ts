import { createServer, connect, type AddressInfo, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** As if the server behind went away: every connection through the proxy drops, and new ones are dropped at once. */
  cut(): Promise<void>;
  /** As if the server behind went silent: every connection drops, and new ones are accepted but never answered. */
  stall(): Promise<void>;
  /** Passes connections through again; a hold (`holdFrom`) ends, and the connections it held drop. */
  restore(): Promise<void>;
  /**
   * From the first chunk a client sends that holds `text` (a statement's SQL, say), that
   * connection's requests go no further and get no answer, as if the server had stopped there;
   * resolves once it happened. Other connections pass as before.
   */
  holdFrom(text: string): Promise<void>;
  /**
   * Ends a hold as a slow server would: what the held connections sent reaches the server now, in
   * order, late, and their traffic passes again (`restore` instead drops it, as a lost server).
   */
  release(): void;
  /** How many chunks clients have sent since the call that hold `text` (the statements that name a table, say). */
  countSent(text: string): () => number;
  close(): Promise<void>;
}

/**
 * A TCP proxy on loopback to `target`, for a test that takes a shared server (PostgreSQL) away
 * from one test file's process alone: the other files keep their own connections to it. It keeps
 * its port throughout, so no other file's server can take the port while it is "down".
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let mode: 'pass' | 'drop' | 'silent' = 'pass';
  let hold: { text: string; held: () => void } | undefined;
  /** Each held connection, with what sends on what it held. */
  const heldSockets = new Map<Socket, () => void>();
  const counters: { text: string; count: number }[] = [];
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = createServer((client) => {
    track(client);
    if (mode === 'drop') return client.destroy();
    if (mode === 'silent') return;
    const upstream = connect(target.port, target.host);
    track(upstream);
    let holding = false;
    const held: Buffer[] = [];
    client.on('data', (chunk: Buffer) => {
      for (const counter of counters) if (chunk.includes(counter.text)) counter.count += 1;
      if (!holding && hold && chunk.includes(hold.text)) {
        holding = true;
        heldSockets.set(client, () => {
          holding = false;
          for (const late of held.splice(0)) upstream.write(late);
        });
        hold.held();
      }
      if (holding) held.push(chunk);
      else upstream.write(chunk);
    });
    client.once('end', () => upstream.end());
    upstream.pipe(client);
    // Either end going away takes the other with it, as a dropped connection would.
    client.once('close', () => {
      heldSockets.delete(client);
      upstream.destroy();
    });
    upstream.once('close', () => client.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const switchTo = async (next: typeof mode) => {
    mode = next;
    if (next !== 'pass') for (const socket of sockets) socket.destroy();
  };
  return {
    port: (server.address() as AddressInfo).port,
    cut: () => switchTo('drop'),
    stall: () => switchTo('silent'),
    restore: async () => {
      hold = undefined;
      for (const socket of heldSockets.keys()) socket.destroy();
      await switchTo('pass');
    },
    holdFrom: (text) => new Promise<void>((held) => (hold = { text, held })),
    release: () => {
      hold = undefined;
      for (const sendHeld of heldSockets.values()) sendHeld();
      heldSockets.clear();
    },
    countSent: (text) => {
      const counter = { text, count: 0 };
      counters.push(counter);
      return () => counter.count;
    },
    close: async () => {
      await switchTo('drop');
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
