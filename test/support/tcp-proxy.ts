import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** As if the server behind went away: every connection through the proxy drops, and new ones are refused. */
  cut(): Promise<void>;
  /** As if the server behind went silent: every connection drops, and new ones are accepted but never answered. */
  stall(): Promise<void>;
  /** Passes connections through again, on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP proxy on loopback to `target`, for a test that takes a shared server (PostgreSQL) away
 * from one test file's process alone: the other files keep their own connections to it.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const passThrough = (client: Socket) => {
    const upstream = connect(target.port, target.host);
    track(upstream);
    client.pipe(upstream).pipe(client);
    // Either end going away takes the other with it, as a dropped connection would.
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  };
  let silent = false;
  let server: Server | undefined;
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const listening = createServer((client) => {
        track(client);
        if (!silent) passThrough(client);
      });
      listening.once('error', reject);
      listening.listen(port, '127.0.0.1', () => resolve((listening.address() as AddressInfo).port));
      server = listening;
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server) return resolve();
      server.close(() => resolve());
      server = undefined;
      for (const socket of sockets) socket.destroy();
    });
  const port = await listen(0);
  return {
    port,
    cut: stop,
    async stall() {
      for (const socket of sockets) socket.destroy();
      silent = true;
    },
    async restore() {
      silent = false;
      if (!server) await listen(port);
    },
    close: stop,
  };
}
