import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JwksCache } from '../../shared/platform/auth/jwks-cache.js';
import { OutboundPoster } from '../../shared/platform/http/outbound-post.js';
import { ImageFetcher } from '../../shared/receipts/ocr/image-fetcher.js';

let listener: Server;
let port: number;
let connections = 0;

beforeAll(async () => {
  // Listens on every loopback address, IPv4 and IPv6: a refused request must never reach it.
  listener = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '::', resolve));
  port = (listener.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

/** Ways to write an address of this machine or its private network, each as a URL's host. */
const forms = (): [string, string][] => [
  ['IPv4 loopback', `127.0.0.1:${port}`],
  ['IPv4 loopback in decimal', `2130706433:${port}`],
  ['IPv4 loopback in short hex', `0x7f.1:${port}`],
  ['localhost, resolved by DNS', `localhost:${port}`],
  ['the unspecified address', `0.0.0.0:${port}`],
  ['a private network', `10.0.0.1:${port}`],
  ['the cloud metadata address', `169.254.169.254:${port}`],
  ['IPv6 loopback', `[::1]:${port}`],
  ['IPv6 unspecified', `[::]:${port}`],
  ['IPv4-compatible IPv6 (::/96)', `[::127.0.0.1]:${port}`],
  ['IPv4-mapped IPv6 (::ffff:0:0/96)', `[::ffff:127.0.0.1]:${port}`],
  ['NAT64 (64:ff9b::/96)', `[64:ff9b::7f00:1]:${port}`],
  ['6to4 of loopback (2002::/16)', `[2002:7f00:1::]:${port}`],
  ['IPv6 link-local', `[fe80::1]:${port}`],
  ['IPv6 unique local', `[fd00::1]:${port}`],
];

// Issue 17, medium: "https://[::127.0.0.1]:P/ … was not refused: the platform tried to connect.
// Refuse ::/96, ::ffff:0:0/96, 64:ff9b::/96, 2002::/16 … and check every outbound fetch (images,
// webhooks, … the JWKS address) through the same filter, with a test per address form."
describe('every outbound request refuses private and loopback addresses in every form', () => {
  const poster = new OutboundPoster(false, 2000);
  const images = new ImageFetcher(false);
  const keys = new JwksCache(false);

  it.each(forms().map(([name]) => [name]))(
    "%s: a webhook, a claim's image and a tenant's JWKS are all refused before connecting",
    async (name) => {
      const host = forms().find(([form]) => form === name)![1];
      const before = connections;
      await expect(poster.post(`http://${host}/hook`, '{}', {})).rejects.toThrow(/not allowed/);
      const image = await images.fetch(`https://${host}/receipt.png`, 2000).then(
        () => undefined,
        (error: unknown) => error as { permanent: boolean; message: string },
      );
      expect(image).toMatchObject({ permanent: true, message: expect.stringMatching(/not allowed/) });
      await expect(
        keys.get(`http://${host}/.well-known/jwks.json`)({ alg: 'RS256', kid: 'k' }, {
          payload: '',
          signature: '',
        } as never),
      ).rejects.toThrow(/not allowed/);
      expect(connections).toBe(before);
    },
  );

  it('the same JWKS address is fetched where private addresses are allowed (tests and demos)', async () => {
    const before = connections;
    await expect(
      new JwksCache(true).get(`http://127.0.0.1:${port}/.well-known/jwks.json`)({ alg: 'RS256', kid: 'k' }, {
        payload: '',
        signature: '',
      } as never),
    ).rejects.toThrow();
    expect(connections).toBe(before + 1);
  });
});

describe("a tenant's JWKS address answering oddly", () => {
  it('a status no web Response can carry (999) fails the key lookup, and does not crash the process', async () => {
    const odd = createHttpServer((_request, response) => response.writeHead(999).end('{}'));
    await new Promise<void>((resolve) => odd.listen(0, '127.0.0.1', resolve));
    try {
      const keys = new JwksCache(true).get(
        `http://127.0.0.1:${(odd.address() as AddressInfo).port}/.well-known/jwks.json`,
      );
      await expect(keys({ alg: 'RS256', kid: 'k' }, { payload: '', signature: '' } as never)).rejects.toThrow(
        /status 999/,
      );
    } finally {
      await new Promise<void>((resolve) => odd.close(() => resolve()));
    }
  });
});
