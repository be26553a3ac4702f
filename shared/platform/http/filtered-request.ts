import {
  request as httpRequest,
  type Agent,
  type ClientRequest,
  type IncomingMessage,
  type RequestOptions,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIPv6, Socket, type LookupFunction, type TcpNetConnectOpts } from 'node:net';
import type { Duplex } from 'node:stream';
import { lookup as dnsLookup } from 'node:dns';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';

/**
 * Addresses refused beyond request-filtering-agent's own: it refuses every range ipaddr.js does not
 * call unicast (IPv4-mapped `::ffff:0:0/96`, NAT64 `64:ff9b::/96` and 6to4 `2002::/16` included),
 * but the deprecated IPv4-compatible `::/96` counts as unicast there, and `[::127.0.0.1]` (which is
 * `::7f00:1`) reached loopback (issue 17). Checked here rather than through the agent's own
 * deny list, which warns on the console for every IPv4 address it compares with an IPv6 range.
 */
const IPV4_COMPATIBLE = new BlockList();
IPV4_COMPATIBLE.addSubnet('::', 96, 'ipv6');

function refusedAddress(address: string | undefined): Error | undefined {
  const bare = address?.replace(/^\[|\]$/g, '');
  return bare && isIPv6(bare) && IPV4_COMPATIBLE.check(bare, 'ipv6')
    ? new Error(`${bare} is not allowed: an IPv4-compatible IPv6 address`)
    : undefined;
}

/** DNS answers in ::/96 are refused too (request-filtering-agent wraps this lookup with its own checks). */
const lookupRefusingIpv4Compatible: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, options, (error, address, family) => {
    if (error) return callback(error, address as string, family);
    const addresses = Array.isArray(address) ? address : [{ address, family }];
    const refusal = addresses.map((entry) => refusedAddress(entry.address)).find(Boolean);
    if (refusal) return callback(Object.assign(refusal, { code: 'EREFUSED' }), '', 0);
    callback(null, address as string, family);
  });
};

type ConnectionListener = (error: Error | null, socket: Duplex) => void;

/** An IPv4-compatible literal is refused at once; anything else connects with the lookup above. */
function connectUnlessRefused(
  options: TcpNetConnectOpts,
  listener: ConnectionListener | undefined,
  connect: (options: TcpNetConnectOpts) => Duplex,
): Duplex {
  const refusal = refusedAddress(options.host);
  if (!refusal) return connect({ ...options, lookup: lookupRefusingIpv4Compatible });
  const socket = new Socket();
  if (listener) listener(refusal, socket);
  else socket.destroy(refusal);
  return socket;
}

class SafeHttpAgent extends RequestFilteringHttpAgent {
  override createConnection(options: TcpNetConnectOpts, listener?: ConnectionListener): Duplex {
    return connectUnlessRefused(options, listener, (safe) => super.createConnection(safe, listener));
  }
}

class SafeHttpsAgent extends RequestFilteringHttpsAgent {
  override createConnection(options: TcpNetConnectOpts, listener?: ConnectionListener): Duplex {
    return connectUnlessRefused(options, listener, (safe) => super.createConnection(safe, listener));
  }
}

/**
 * HTTP requests to addresses a tenant or a shopper gave us (webhooks, receipt images, a tenant's
 * JWKS). Private, loopback and link-local addresses are refused after DNS resolution, IP literals
 * included (request-filtering-agent), unless FETCH_ALLOW_PRIVATE_ADDRESSES is set for tests and
 * demos. Every outbound request of the platform goes through here.
 */
export class FilteredRequester {
  private readonly httpAgent: Agent;
  private readonly httpsAgent: Agent;

  constructor(allowPrivateAddresses: boolean, keepAlive = false) {
    const options = {
      allowPrivateIPAddress: allowPrivateAddresses,
      allowMetaIPAddress: allowPrivateAddresses,
      keepAlive,
    };
    this.httpAgent = allowPrivateAddresses ? new RequestFilteringHttpAgent(options) : new SafeHttpAgent(options);
    this.httpsAgent = allowPrivateAddresses ? new RequestFilteringHttpsAgent(options) : new SafeHttpsAgent(options);
  }

  request(url: URL, options: RequestOptions, onResponse: (response: IncomingMessage) => void): ClientRequest {
    return url.protocol === 'https:'
      ? httpsRequest(url, { ...options, agent: this.httpsAgent }, onResponse)
      : httpRequest(url, { ...options, agent: this.httpAgent }, onResponse);
  }

  /**
   * A `fetch` for libraries that take one (jose's JWKS), through the same checks: a GET whose
   * answer is read up to `maxBytes`, redirects not followed. A status a web Response cannot carry
   * (below 200, above 599) is an error, not a crash.
   */
  fetcher(maxBytes: number): (url: string, init: { headers?: Headers; signal?: AbortSignal }) => Promise<Response> {
    return (url, init) =>
      new Promise((resolve, reject) => {
        const request = this.request(
          new URL(url),
          {
            method: 'GET',
            headers: Object.fromEntries(init.headers ?? []),
            ...(init.signal ? { signal: init.signal } : {}),
          },
          (response) => {
            const chunks: Buffer[] = [];
            let size = 0;
            response.on('data', (chunk: Buffer) => {
              size += chunk.length;
              if (size > maxBytes) request.destroy(new Error(`the answer is larger than ${maxBytes} bytes`));
              else chunks.push(chunk);
            });
            response.on('end', () => {
              const status = response.statusCode ?? 0;
              if (status < 200 || status > 599) return reject(new Error(`${url} answered with status ${status}`));
              resolve(
                new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), {
                  status,
                  headers: { 'content-type': response.headers['content-type'] ?? '' },
                }),
              );
            });
            response.on('error', reject);
          },
        );
        request.on('error', reject);
        request.end();
      });
  }
}
