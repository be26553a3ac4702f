import type { Webhook as StandardWebhook } from 'standardwebhooks';

/**
 * The Standard Webhooks headers of one signed POST (docs/events.md#webhooks): `webhook-id`, which
 * stays the same over retries so the receiver can drop a repeat, `webhook-timestamp` in seconds,
 * and `webhook-signature` over the three. Webhook deliveries and partner orders are signed alike.
 */
export function signedHeaders(
  signer: StandardWebhook,
  id: string,
  timestamp: Date,
  body: string,
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': signer.sign(id, timestamp, body),
  };
}
