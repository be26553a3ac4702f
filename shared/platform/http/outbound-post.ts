import { systemClock, type Clock } from '../async/clock.js';
import { FilteredRequester } from './filtered-request.js';

export interface OutboundResponse {
  status: number;
  /** The first few kilobytes of the answer, for the delivery record. */
  body: string;
}

const MAX_RECORDED_BODY = 2048;

/**
 * POSTs to an address a tenant gave us (a webhook), through the FilteredRequester's address checks;
 * redirects are not followed.
 */
export class OutboundPoster {
  private readonly requester: FilteredRequester;

  constructor(
    allowPrivateAddresses: boolean,
    /** For the whole exchange: connecting, sending, and reading the answer. */
    private readonly timeoutMs = 10_000,
    private readonly clock: Clock = systemClock,
  ) {
    this.requester = new FilteredRequester(allowPrivateAddresses, true);
  }

  post(url: string, body: string, headers: Record<string, string>): Promise<OutboundResponse> {
    return new Promise((resolve, reject) => {
      // The whole exchange is bounded, not only idle gaps: a receiver that trickles bytes or never
      // ends its answer must not hold a delivery slot shared by every tenant.
      const cancelDeadline = this.clock.after(this.timeoutMs, () =>
        request.destroy(new Error(`no complete answer within ${this.timeoutMs} ms`)),
      );
      const settle =
        <T>(finish: (value: T) => void) =>
        (value: T) => {
          cancelDeadline();
          finish(value);
        };
      const done = settle(resolve);
      const fail = settle(reject);
      const request = this.requester.request(
        new URL(url),
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers },
        },
        (response) => {
          let received = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            received += chunk;
            // Enough for the delivery record: stop reading the rest.
            if (received.length >= MAX_RECORDED_BODY) {
              done({ status: response.statusCode ?? 0, body: received.slice(0, MAX_RECORDED_BODY) });
              response.destroy();
            }
          });
          response.on('end', () => done({ status: response.statusCode ?? 0, body: received }));
          response.on('error', fail);
        },
      );
      request.on('error', fail);
      request.end(body);
    });
  }
}
