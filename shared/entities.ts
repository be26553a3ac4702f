import { AuditEntry } from './audit/audit-entry.entity.js';
import { AuditOutbox } from './audit/audit-outbox.entity.js';
import { EventType } from './event-types/event-type.entity.js';
import { IdempotencyRecord } from './idempotency/idempotency-record.entity.js';
import { Tenant } from './tenants/tenant.entity.js';
import { User } from './users/user.entity.js';
import { Event } from './events/event.entity.js';
import { LedgerEntry } from './ledger/ledger-entry.entity.js';
import { Wallet } from './ledger/wallet.entity.js';
import { PointsLot } from './ledger/points-lot.entity.js';
import { PointsDay } from './ledger/points-day.entity.js';
import { Reactor } from './reactors/reactor.entity.js';
import { Webhook } from './webhooks/webhook.entity.js';
import { WebhookDelivery } from './webhooks/webhook-delivery.entity.js';
import { Product, ProductIdentifier } from './products/product.entity.js';
import { Venue } from './venues/venue.entity.js';
import { RuleSet } from './rules/rule-set.entity.js';
import { Order } from './orders/order.entity.js';
import { Receipt } from './receipts/receipt.entity.js';
import { Review } from './receipts/review.entity.js';
import { ReceiptOcrRead } from './receipts/receipt-ocr-read.entity.js';
import { Reward, RewardCode } from './rewards/reward.entity.js';
import { Voucher } from './rewards/voucher.entity.js';
import { Purchase } from './rewards/purchase.entity.js';
import { Job, JobError } from './jobs/job.entity.js';
import { ReferralCampaign } from './referrals/referral-campaign.entity.js';
import { ReferralCode } from './referrals/referral-code.entity.js';
import { Referral } from './referrals/referral.entity.js';
import { ReferralActivity } from './referrals/referral-activity.entity.js';
import { ConsentType, ConsentTypeVersion } from './consents/consent-type.entity.js';
import { MemberConsent } from './consents/member-consent.entity.js';

/** Every entity the ORM knows; a new feature adds its own here. */
export const entities = [
  Tenant,
  EventType,
  AuditEntry,
  AuditOutbox,
  IdempotencyRecord,
  User,
  Event,
  Reactor,
  LedgerEntry,
  Wallet,
  PointsLot,
  PointsDay,
  Webhook,
  WebhookDelivery,
  Product,
  ProductIdentifier,
  Venue,
  RuleSet,
  Order,
  Receipt,
  Review,
  ReceiptOcrRead,
  Reward,
  RewardCode,
  Voucher,
  Purchase,
  Job,
  JobError,
  ReferralCampaign,
  ReferralCode,
  Referral,
  ReferralActivity,
  ConsentType,
  ConsentTypeVersion,
  MemberConsent,
];
