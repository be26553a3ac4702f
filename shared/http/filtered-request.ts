import { request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';

/**
 * Addresses refused beyond request-filtering-agent's own: it refuses every range ipaddr.js does not
 * call unicast (IPv4-mapped `::ffff:0:0/96`, NAT64 `64:ff9b::/96` and 6to4 `2002::/16` included),
 * but the deprecated IPv4-compatible `::/96` counts as unicast there, and `[::127.0.0.1]` (which is
 * `::7f00:1`) reached loopback (issue 17).
 */
const REFUSED_IPV6_RANGES = ['::/96'];

/**
 * HTTP requests to addresses a tenant or a shopper gave us (webhooks, receipt images, a tenant's
 * JWKS). Private, loopback and link-local addresses are refused after DNS resolution, IP literals
 * included (request-filtering-agent), unless FETCH_ALLOW_PRIVATE_ADDRESSES is set for tests and
 * demos. Every outbound request of the platform goes through here.
 */
export class FilteredRequester {
  private readonly httpAgent: RequestFilteringHttpAgent;
  private readonly httpsAgent: RequestFilteringHttpsAgent;

  constructor(allowPrivateAddresses: boolean, keepAlive = false) {
    const options = {
      allowPrivateIPAddress: allowPrivateAddresses,
      allowMetaIPAddress: allowPrivateAddresses,
      denyIPAddressList: allowPrivateAddresses ? [] : REFUSED_IPV6_RANGES,
      keepAlive,
    };
    this.httpAgent = new RequestFilteringHttpAgent(options);
    this.httpsAgent = new RequestFilteringHttpsAgent(options);
  }

  request(url: URL, options: RequestOptions, onResponse: (response: IncomingMessage) => void): ClientRequest {
    return url.protocol === 'https:'
      ? httpsRequest(url, { ...options, agent: this.httpsAgent }, onResponse)
      : httpRequest(url, { ...options, agent: this.httpAgent }, onResponse);
  }

  /**
   * A `fetch` for libraries that take one (jose's JWKS), through the same checks: a GET whose
   * answer is read up to `maxBytes`, redirects not followed.
   */
  fetcher(maxBytes: number): (url: string, init: { headers?: Headers; signal?: AbortSignal }) => Promise<Response> {
    return (url, init) =>
      new Promise((resolve, reject) => {
        const request = this.request(new URL(url), { method: 'GET', headers: Object.fromEntries(init.headers ?? []), ...(init.signal ? { signal: init.signal } : {}) }, (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) request.destroy(new Error(`the answer is larger than ${maxBytes} bytes`));
            else chunks.push(chunk);
          });
          response.on('end', () => {
            const status = response.statusCode ?? 500;
            resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status: status < 200 ? 502 : status, headers: { 'content-type': response.headers['content-type'] ?? '' } }));
          });
          response.on('error', reject);
        });
        request.on('error', reject);
        request.end();
      });
  }
}
