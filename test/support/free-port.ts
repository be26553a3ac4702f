import { createServer, type AddressInfo } from 'node:net';

/**
 * A TCP port nothing listens on now, for a process the test starts: the kernel's choice, never one
 * drawn at random, which another process's outgoing connection may hold (a flake seen with the
 * suite beside other work).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
