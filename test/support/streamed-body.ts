import type { Harness, TestTenant } from './harness.js';

const CHUNK = new TextEncoder().encode('x'.repeat(64 * 1024));

/**
 * POSTs to `path` a body streamed in 64 kB chunks with no Content-Length, 64 MB if read to the
 * end, and tells how many chunks the server pulled: a limit that holds stops it early.
 */
export async function postEndlessBody(
  harness: Harness,
  tenant: TestTenant,
  path: string,
  token: string,
): Promise<{ response: Response; chunksPulled: number }> {
  let chunksPulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      chunksPulled += 1;
      if (chunksPulled > 1024) controller.close();
      else controller.enqueue(CHUNK);
    },
  });
  const response = await harness.app.request(path, {
    method: 'POST',
    headers: { 'X-Api-Key': tenant.key, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body,
    duplex: 'half',
  } as RequestInit);
  return { response, chunksPulled };
}
