import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Socket } from 'node:net';

/** How long and how much a closing connection is still read (docs/operations.md#configuration). */
export interface LingeringBounds {
  /** The longest it is read after the answer, however steadily the client writes (nginx's `lingering_time`). */
  timeMs: number;
  /** The longest it waits for the client's next bytes (nginx's `lingering_timeout`). */
  timeoutMs: number;
  /** The most bytes it reads and discards. */
  bytes: number;
}

/**
 * nginx's `lingering_close` for the connections Node closes after an answer while the client is
 * still sending its request body: the 413 of a body over its limit, which says `Connection: close`.
 * Node closes them with `socket.destroySoon()`: the answer, a FIN, then the socket is destroyed at
 * once. The bytes the client still writes then meet a closed socket, and the kernel answers them
 * with a reset, which makes the client's kernel discard what it had received and not yet read: a
 * client that reads only once it has written its body (most do) never reads the 413. Here the
 * answer and the FIN go out the same way, and the rest of the body is then read and discarded until
 * it ends or the client closes its side, for `timeMs` at most, `timeoutMs` without a byte, or
 * `bytes` read, so that a client that never stops writing cannot hold the connection; only then is
 * it destroyed.
 */
export function lingerOnClose(server: HttpServer, bounds: LingeringBounds): void {
  const requests = new WeakMap<Socket, IncomingMessage>();
  const lingering = new WeakSet<Socket>();
  // Node's parser reads on past a refused body and emits what the client pipelined behind it as a
  // request of its own, which every listener would run though the answer said the connection
  // closes: so it is stopped here, before any listener sees it, and its connection cut (the client
  // has sent all its body by then). Node offers no hook that runs before the listeners.
  const emit = server.emit.bind(server) as (event: string | symbol, ...args: unknown[]) => boolean;
  server.emit = ((event: string | symbol, ...args: unknown[]) => {
    if (event !== 'request') return emit(event, ...args);
    const { socket } = args[0] as IncomingMessage;
    if (lingering.has(socket)) {
      socket.destroy();
      return false;
    }
    requests.set(socket, args[0] as IncomingMessage);
    return emit(event, ...args);
  }) as HttpServer['emit'];
  server.on('connection', (socket: Socket) => {
    const destroySoon = socket.destroySoon.bind(socket);
    // Called by Node once an answer that closes the connection is written, and again by
    // @hono/node-server when the unread body it drains does not end within its own bound.
    socket.destroySoon = () => {
      if (lingering.has(socket)) return;
      const request = requests.get(socket);
      if (!request || request.complete) return destroySoon();
      lingering.add(socket);
      linger(socket, request, bounds);
    };
  });
}

/**
 * How often a lingering connection's bytes are compared with its bounds (more often for a shorter
 * timeout): Node's parser reads a body it has discarded without a JS event per read, so its count
 * is read at intervals, and what arrives within one past a bound is read too.
 */
const CHECK_EVERY_MS = 100;

/**
 * The body is read through the request, as Node reads it (discarding it when no one listens), so
 * its framing (a Content-Length or chunks) says when it ends: the client has then sent all it meant
 * to, and reads the answer and the FIN it has. The bounds are checked against the socket's count of
 * bytes read, which counts what Node's parser reads too.
 */
function linger(socket: Socket, request: IncomingMessage, { timeMs, timeoutMs, bytes }: LingeringBounds): void {
  const startedAt = Date.now();
  const first = socket.bytesRead;
  let [last, lastReadAt] = [first, startedAt];
  const check = setInterval(
    () => {
      const [now, read] = [Date.now(), socket.bytesRead];
      if (read !== last) [last, lastReadAt] = [read, now];
      if (read - first > bytes || now - lastReadAt >= timeoutMs || now - startedAt >= timeMs) socket.destroy();
    },
    Math.min(CHECK_EVERY_MS, timeoutMs),
  );
  check.unref();
  socket.once('close', () => clearInterval(check));
  // The answer is sent: whatever still listened for the body (the app's stream of it, which
  // pauses the request once its queue is full and nobody reads it) has no use for it now.
  request.removeAllListeners('data');
  request.once('end', () => socket.destroy());
  socket.once('end', () => socket.destroy());
  socket.end();
  request.resume();
}
