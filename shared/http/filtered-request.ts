import { request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';

/**
 * HTTP requests to addresses a tenant or a shopper gave us (webhooks, receipt images). Private,
 * loopback and link-local addresses are refused after DNS resolution, IP literals included
 * (request-filtering-agent), unless FETCH_ALLOW_PRIVATE_ADDRESSES is set for tests and demos.
 */
export class FilteredRequester {
  private readonly httpAgent: RequestFilteringHttpAgent;
  private readonly httpsAgent: RequestFilteringHttpsAgent;

  constructor(allowPrivateAddresses: boolean, keepAlive = false) {
    const options = { allowPrivateIPAddress: allowPrivateAddresses, allowMetaIPAddress: allowPrivateAddresses, keepAlive };
    this.httpAgent = new RequestFilteringHttpAgent(options);
    this.httpsAgent = new RequestFilteringHttpsAgent(options);
  }

  request(url: URL, options: RequestOptions, onResponse: (response: IncomingMessage) => void): ClientRequest {
    return url.protocol === 'https:'
      ? httpsRequest(url, { ...options, agent: this.httpsAgent }, onResponse)
      : httpRequest(url, { ...options, agent: this.httpAgent }, onResponse);
  }
}
