import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';
import { systemClock, type Clock } from '../../platform/async/clock.js';
import { FilteredRequester } from '../../platform/http/filtered-request.js';

/** The image types the OCR engines read (through sharp), known by their bytes (file-type), never by a name or a header. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/bmp']);
const MAX_REDIRECTS = 5;
/**
 * A few kilobytes of PNG can declare a picture of a billion pixels, which the reader would try to
 * hold in memory: a photographed receipt is far below this.
 */
const MAX_PIXELS = 40_000_000;

export interface FetchedImage {
  bytes: Buffer;
  mime: string;
  /** SHA-256 of the bytes: the DUPLICATE check's "same image hash". */
  sha256: string;
}

/** Why an image cannot be had: `permanent` failures are not worth a retry (a private address, a PDF). */
export class ImageFetchError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

export interface ImageFetchLimits {
  maxBytes: number;
}

/** docs/receipts.md#ocr: "at most 10 MB"; its time is the claim's budget, given to each fetch (read-claim.ts). */
export const RECEIPT_IMAGE_LIMITS: ImageFetchLimits = { maxBytes: 10 * 1024 * 1024 };

/**
 * Fetches a claim's image from the address a shopper gave (docs/receipts.md#ocr): https only, and
 * no private, loopback or link-local address after DNS resolution (request-filtering-agent, IP
 * literals included), unless private fetching is allowed (tests, demos), which also admits http.
 * Redirects are followed by hand, each hop checked again. The whole exchange, redirects included,
 * is bounded in time (by the clock's timers, so a test moves the time) and size; the body must be
 * an image by its bytes, of a sane number of pixels.
 */
export class ImageFetcher {
  private readonly requester: FilteredRequester;

  constructor(
    private readonly allowPrivateAddresses: boolean,
    private readonly clock: Clock = systemClock,
    private readonly limits: ImageFetchLimits = RECEIPT_IMAGE_LIMITS,
  ) {
    this.requester = new FilteredRequester(allowPrivateAddresses);
  }

  /** `timeoutMs`: the time this fetch may take, every hop and byte included: what is left of the claim's budget. */
  async fetch(address: string, timeoutMs: number): Promise<FetchedImage> {
    const deadline = this.clock.now() + timeoutMs;
    let url = this.checkedUrl(address);
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const response = await this.get(url, deadline, timeoutMs);
      if (response.redirect) {
        url = this.checkedUrl(new URL(response.redirect, url).toString());
        continue;
      }
      const type = await fileTypeFromBuffer(response.bytes);
      if (!type || !IMAGE_TYPES.has(type.mime))
        throw new ImageFetchError(
          `${address} is not a PNG, JPEG, WebP or BMP image${type ? ` (${type.mime})` : ''}`,
          true,
        );
      checkPixels(address, response.bytes);
      return {
        bytes: response.bytes,
        mime: type.mime,
        sha256: createHash('sha256').update(response.bytes).digest('hex'),
      };
    }
    throw new ImageFetchError(`${address} redirects more than ${MAX_REDIRECTS} times`, true);
  }

  private checkedUrl(address: string): URL {
    if (!URL.canParse(address)) throw new ImageFetchError(`"${address}" is not an address`, true);
    const url = new URL(address);
    const allowed = url.protocol === 'https:' || (this.allowPrivateAddresses && url.protocol === 'http:');
    if (!allowed) throw new ImageFetchError(`${address}: images are fetched over https only`, true);
    return url;
  }

  /** One hop: the body (up to the size limit), or where it redirects to. */
  private get(url: URL, deadline: number, timeoutMs: number): Promise<{ bytes: Buffer; redirect?: string }> {
    return new Promise((resolve, reject) => {
      const cancelTimer = this.clock.after(Math.max(0, deadline - this.clock.now()), () =>
        request.destroy(new ImageFetchError(`${url} did not send its image within ${timeoutMs} ms`, false)),
      );
      let settled = false;
      const finish = (outcome: () => void) => {
        cancelTimer();
        if (settled) return;
        settled = true;
        outcome();
      };
      const request = this.requester.request(
        url,
        { method: 'GET', headers: { Accept: 'image/*' } },
        (response: IncomingMessage) => {
          const status = response.statusCode ?? 0;
          if (status >= 300 && status < 400 && response.headers.location) {
            response.resume();
            return finish(() => resolve({ bytes: Buffer.alloc(0), redirect: response.headers.location }));
          }
          if (status !== 200) {
            response.resume();
            // A server error may pass; a 4xx answer will not change on a retry.
            return finish(() => reject(new ImageFetchError(`${url} answered ${status}`, status < 500)));
          }
          const declared = Number(response.headers['content-length'] ?? 0);
          if (declared > this.limits.maxBytes) {
            response.destroy();
            return finish(() => reject(tooLarge(url, this.limits.maxBytes)));
          }
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > this.limits.maxBytes) {
              response.destroy();
              finish(() => reject(tooLarge(url, this.limits.maxBytes)));
            } else {
              chunks.push(chunk);
            }
          });
          response.on('end', () => finish(() => resolve({ bytes: Buffer.concat(chunks) })));
          response.on('error', (error) => finish(() => reject(error)));
        },
      );
      request.on('error', (error) =>
        finish(() => reject(error instanceof ImageFetchError ? error : refusal(url, error))),
      );
      request.end();
    });
  }
}

function checkPixels(address: string, bytes: Buffer): void {
  let size: { width?: number; height?: number };
  try {
    size = imageSize(bytes);
  } catch {
    throw new ImageFetchError(`${address}: the image's size cannot be read`, true);
  }
  const pixels = (size.width ?? 0) * (size.height ?? 0);
  if (pixels === 0 || pixels > MAX_PIXELS)
    throw new ImageFetchError(
      `${address} is ${size.width}×${size.height} pixels; at most ${MAX_PIXELS} are read`,
      true,
    );
}

function tooLarge(url: URL, maxBytes: number): ImageFetchError {
  return new ImageFetchError(`${url} is larger than ${maxBytes} bytes`, true);
}

/** request-filtering-agent refuses an address with an error naming it: that is permanent; a network failure is not. */
function refusal(url: URL, error: Error): ImageFetchError {
  const refused = /is not allowed|private|loopback|meta/i.test(error.message);
  return new ImageFetchError(`${url}: ${error.message}`, refused);
}
