import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';

export interface OutboundResponse {
  status: number;
  /** The first few kilobytes of the answer, for the delivery record. */
  body: string;
}

const MAX_RECORDED_BODY = 2048;

/**
 * POSTs to an address a tenant gave us (a webhook). Private, loopback and link-local addresses are
 * refused after DNS resolution, IP literals included (request-filtering-agent), unless
 * FETCH_ALLOW_PRIVATE_ADDRESSES is set for tests and demos; redirects are not followed.
 */
export class OutboundPoster {
  private readonly httpAgent: RequestFilteringHttpAgent;
  private readonly httpsAgent: RequestFilteringHttpsAgent;

  constructor(allowPrivateAddresses: boolean, private readonly timeoutMs = 10_000) {
    const options = { allowPrivateIPAddress: allowPrivateAddresses, allowMetaIPAddress: allowPrivateAddresses, keepAlive: true };
    this.httpAgent = new RequestFilteringHttpAgent(options);
    this.httpsAgent = new RequestFilteringHttpsAgent(options);
  }

  post(url: string, body: string, headers: Record<string, string>): Promise<OutboundResponse> {
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const agent = target.protocol === 'https:' ? this.httpsAgent : this.httpAgent;
    return new Promise((resolve, reject) => {
      const request = send(
        target,
        { method: 'POST', agent, timeout: this.timeoutMs, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers } },
        (response) => {
          let received = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            if (received.length < MAX_RECORDED_BODY) received += chunk;
          });
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: received.slice(0, MAX_RECORDED_BODY) }));
          response.on('error', reject);
        },
      );
      request.on('timeout', () => request.destroy(new Error(`no answer within ${this.timeoutMs} ms`)));
      request.on('error', reject);
      request.end(body);
    });
  }
}
