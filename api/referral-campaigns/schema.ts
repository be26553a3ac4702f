import { TIMESTAMPS } from '../../shared/platform/validation/timestamps.js';
import { Type } from 'typebox';
import { REFERRAL_CODE_TYPES } from '../../shared/referrals/referral-campaign.entity.js';
import { TIMESTAMP_FIELDS, type ListSpec } from '../../shared/platform/lists/list-spec.js';
import { changesSchema } from '../../shared/platform/validation/changes-schema.js';
import { uuidPath } from '../routes/request-input.js';

const WebAddress = (description: string) => Type.String({ format: 'web-address', maxLength: 2048, description });
const OptionalAddress = (description: string) => Type.Optional(Type.Union([WebAddress(description), Type.Null()]));

export const LinkConfig = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 256, description: 'the title an invite shows where it is shared' }),
    description: Type.String({ maxLength: 2000, description: 'the text an invite shows where it is shared' }),
    desktopUrl: WebAddress('where an invite leads; the invite link of a LINK campaign is built from it'),
    imageUrl: OptionalAddress('the picture an invite shows'),
    iosUrl: OptionalAddress('where an invite leads on iOS'),
    androidUrl: OptionalAddress('where an invite leads on Android'),
  },
  { additionalProperties: false, title: 'ReferralLinkConfig' },
);

export const ReferralCodeType = Type.Enum([...REFERRAL_CODE_TYPES], {
  description:
    'CODE: a random code; LINK: a random code and an invite link; STATIC_USER_CODE: a code the member keeps in every campaign of this type; STATIC_USER_WORD_CODE: the same, made of three words',
});

export const Tranche = Type.Object(
  {
    referrals: Type.Integer({
      minimum: 1,
      description: "the referrer's count of successful referrals that reaches it",
    }),
    name: Type.String({ minLength: 1, maxLength: 256, description: 'its name, in REFERRAL_COMPLETED payloads' }),
  },
  { additionalProperties: false, title: 'ReferralTranche' },
);

export const CreateReferralCampaignBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 256 }),
    linkConfig: LinkConfig,
    isActive: Type.Optional(Type.Boolean({ default: false, description: 'a tenant has one active campaign at most' })),
    referralCodeType: ReferralCodeType,
    tranches: Type.Optional(Type.Array(Tranche, { maxItems: 100, description: 'counts and names distinct' })),
  },
  { additionalProperties: false, title: 'CreateReferralCampaignBody' },
);
export const UpdateReferralCampaignBody = changesSchema(CreateReferralCampaignBody, {
  title: 'UpdateReferralCampaignBody',
});

export const ReferralCampaignResource = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    ...TIMESTAMPS,
    linkConfig: Type.Object({
      title: Type.String(),
      description: Type.String(),
      desktopUrl: Type.String(),
      imageUrl: Type.Union([Type.String(), Type.Null()]),
      iosUrl: Type.Union([Type.String(), Type.Null()]),
      androidUrl: Type.Union([Type.String(), Type.Null()]),
    }),
    isActive: Type.Boolean(),
    tranches: Type.Array(Tranche),
    referralCodeType: ReferralCodeType,
  },
  { title: 'ReferralCampaign' },
);

/** rewards-interface's "Referral code record". */
export const ReferralCodeResource = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    ...TIMESTAMPS,
    inviteCode: Type.String(),
    inviteLink: Type.Union([Type.String(), Type.Null()], { description: "a LINK campaign's invite link" }),
    campaign: ReferralCampaignResource,
    referrer: Type.Object({ id: Type.String({ format: 'uuid' }) }, { description: "the code's owner" }),
  },
  { title: 'ReferralCode' },
);

export const ReferralCampaignStats = Type.Object(
  {
    clicks: Type.Integer({ description: "CLICK activities recorded on the campaign's codes" }),
    registrations: Type.Integer({ description: 'members who registered with one of its codes' }),
    completedTranches: Type.Integer({ description: 'referrals that reached a tranche' }),
  },
  { title: 'ReferralCampaignStats' },
);

export const REFERRAL_CAMPAIGN_LIST: ListSpec = {
  resource: 'referral_campaign',
  defaultSort: 'createdAt',
  fields: {
    name: { type: 'string', filterable: true, sortable: true },
    isActive: { type: 'boolean', filterable: true },
    referralCodeType: { type: 'string', filterable: true },
    ...TIMESTAMP_FIELDS,
  },
};

export const access = { admin: 'admin:users' } as const;
export const tags = ['Referrals'];

export const REFERRAL_CAMPAIGN_EXAMPLE = {
  id: 'c7d8e9f0-1a2b-4c3d-8e4f-5a6b7c8d9e0f',
  name: 'Bring a friend',
  createdAt: '2026-02-01T09:00:00.000Z',
  updatedAt: '2026-02-01T09:00:00.000Z',
  linkConfig: {
    title: 'Join me at Tally Coffee',
    description: 'Sign up with my code and we both get a treat',
    desktopUrl: 'https://coffee.example/join',
    imageUrl: null,
    iosUrl: null,
    androidUrl: null,
  },
  isActive: true,
  tranches: [
    { referrals: 1, name: 'first friend' },
    { referrals: 5, name: 'five friends' },
  ],
  referralCodeType: 'LINK' as const,
};

export const REFERRAL_CODE_EXAMPLE = {
  id: '6e7f8091-a2b3-4c4d-9e5f-607182930a1b',
  createdAt: '2026-02-02T10:00:00.000Z',
  updatedAt: '2026-02-02T10:00:00.000Z',
  inviteCode: 'K7MQ2XWD',
  inviteLink: 'https://coffee.example/join?inviteCode=K7MQ2XWD',
  campaign: REFERRAL_CAMPAIGN_EXAMPLE,
  referrer: { id: '3b2a1c0d-4e5f-4a6b-8c7d-9e0f1a2b3c4d' },
};

export const ReferralCampaignIdParams = uuidPath({
  id: { description: "The campaign's id", example: REFERRAL_CAMPAIGN_EXAMPLE.id },
});
