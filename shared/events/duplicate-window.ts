import { hash } from 'node:crypto';
import { stringify as canonicalize } from 'safe-stable-stringify';

/** docs/events.md#duplicates: "duplicate window 60 seconds". */
export const DUPLICATE_WINDOW_MS = 60_000;

/**
 * docs/events.md#duplicates: an event is a duplicate of one reported in the last 60 s with the same
 * tenant, type, resolved subject and canonical payload (keys sorted at every depth: for JSON data,
 * the RFC 8785 form); `occurredAt` is not part of its identity. The event queue claims this
 * identity in the same Redis transaction that adds the job (event-queue-writer.ts), so a report is
 * either accepted and queued or a duplicate, never claimed but lost.
 */
export function duplicateIdentity(tenantId: string, typeName: string, subject: string, payload: unknown): string {
  // The one-shot hash: a third of createHash's cost, which builds a Hash object per call.
  const identity = hash('sha256', `${typeName}\n${subject}\n${canonicalize(payload)}`, 'base64url');
  return `${tenantId}:${identity}`;
}
