/**
 * The names of the event types the platform reports itself (docs/events.md#system-event-types).
 * They sit below every feature, because the features that report them (orders, receipts,
 * referrals) and those that read them (the ledger's history) must not import each other; the types'
 * schemas are event-types/system-event-types.ts.
 */
export const ORDER_PLACED = 'ORDER_PLACED';
export const RECEIPT_REVIEWED = 'RECEIPT_REVIEWED';
export const REFERRAL_COMPLETED = 'REFERRAL_COMPLETED';
export const REFERRED_REGISTRATION = 'REFERRED_REGISTRATION';
