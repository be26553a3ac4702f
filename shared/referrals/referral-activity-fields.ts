import { Type } from 'typebox';

/** Where an invite was passed on (rewards-interface: referralActivity.source). */
export const ReferralSource = Type.Enum(['EMAIL', 'FACEBOOK', 'TWITTER', 'LINKEDIN', 'OTHER'], {
  description: 'where the invite was passed on',
});

/**
 * The fields an activity on an invite code carries, at registration (REGISTER) and on a click
 * (CLICK), as rewards-interface documents `referralActivity`: `sourceUserId` is who the source
 * knows the person as (or a device id, with source OTHER, when neither is known).
 */
export const ReferralActivityFields = {
  source: ReferralSource,
  sourceUserId: Type.String({
    minLength: 1,
    maxLength: 256,
    description: "the person's id at the source, or their device's id with source OTHER",
  }),
  userAgent: Type.Optional(
    Type.Enum(['IOS', 'ANDROID', 'WEB', 'UNKNOWN'], { description: 'the kind of client the person used' }),
  ),
  ipAddress: Type.Optional(
    Type.String({ format: 'ip', maxLength: 45, description: "the person's IPv4 or IPv6 address" }),
  ),
};
