import { Type, type Static } from 'typebox';

// A member's tier and points outlook as the wallet routes answer them (docs/points.md#tiers,
// docs/points.md#predictions); tier-standing.ts and points-outlook.ts compute them.

/** docs/points.md#tiers: the wallet's `tier`, each number defined where a client reads it. */
export const TierResource = Type.Object(
  {
    id: Type.String({ description: "the tier's id, as the tenant's configuration names it" }),
    name: Type.String(),
    expiringEarn: Type.Integer({
      description:
        "the points earned on the tier window's first 30 days (its oldest days): those that leave the window, and " +
        'stop counting toward the tier, within the next 30 days',
    }),
    pointsToMaintain: Type.Integer({
      description:
        "the points still to earn to keep this tier once the window's first day leaves it tomorrow: the tier's " +
        "threshold less what the window's other days earned, and 0 when those are enough",
    }),
    pointsToNextTier: Type.Integer({
      description:
        "the points still to earn in the window to reach the next tier: its threshold less the window's earnings; " +
        '0 at the top tier',
    }),
  },
  {
    title: 'Tier',
    description:
      "The member's tier: the highest of the tenant's tiers whose threshold the points earned in the tier window " +
      "reach. The window is the last `tierWindowDays` days of the tenant's time zone, today included; what counts " +
      'is the points earned on them, less those reversed since (adjustments do not count).',
  },
);

export const MaxPointsSummary = Type.Object(
  {
    pointsCap: Type.Integer({ description: "the cap's `max` for one period" }),
    remainingPoints: Type.Integer({
      description: 'what is left of the cap in the current period: the cap less what the period used, never below 0',
    }),
    percentageUsed: Type.Number({
      minimum: 0,
      maximum: 100,
      description:
        'what the period used, as a percentage of the cap, rounded down to two decimals (100 only once the cap is ' +
        'reached, and never more)',
    }),
  },
  { title: 'MaxPointsSummary' },
);

const MaxPointsPrediction = (what: 'Spend' | 'Earn') =>
  Type.Object(
    {
      overallSummary: Type.Object(
        { type: Type.Literal('MAX_POINTS'), summary: MaxPointsSummary },
        { title: 'MaxPointsOverallSummary' },
      ),
    },
    {
      title: `${what}CapPrediction`,
      description:
        `The ${what.toLowerCase()} cap in the calendar period (DAY, WEEK from Monday, MONTH or YEAR of the tenant's time zone) ` +
        'holding today; present only when the tenant sets that cap.',
    },
  );

export const ExpiryEntry = Type.Object(
  {
    pointsDueToExpire: Type.Integer({
      description:
        'the points whose expiry falls within the next `timePeriod` days, cumulative (each period includes the ' +
        'shorter ones); points already due and not yet expired count in every period',
    }),
    timePeriod: Type.Union([Type.Literal(1), Type.Literal(7), Type.Literal(30), Type.Literal(90), Type.Literal(365)], {
      description: 'the period, in days',
    }),
  },
  { title: 'ExpirySummaryEntry' },
);

export const WalletPredictionResource = Type.Object(
  {
    pointsSpendPrediction: Type.Optional(MaxPointsPrediction('Spend')),
    pointsEarnPrediction: Type.Optional(MaxPointsPrediction('Earn')),
    pointsExpiryPrediction: Type.Optional(
      Type.Object(
        {
          overallSummary: Type.Object(
            {
              type: Type.Literal('EXPIRY'),
              summary: Type.Array(ExpiryEntry, {
                minItems: 5,
                maxItems: 5,
                description: 'exactly five entries, for 1, 7, 30, 90 and 365 days, in that order',
              }),
            },
            { title: 'ExpiryOverallSummary' },
          ),
        },
        {
          title: 'ExpiryPrediction',
          description: "The member's points that expire soon; present only when the tenant sets points expiry.",
        },
      ),
    ),
  },
  {
    title: 'WalletPrediction',
    description:
      'Each member is present only when its setting is: `pointsSpendPrediction` with a spend cap, ' +
      '`pointsEarnPrediction` with an earn cap, `pointsExpiryPrediction` with points expiry; `{}` with none of them.',
  },
);

export type TierStanding = Static<typeof TierResource>;
export type MaxPointsSummary = Static<typeof MaxPointsSummary>;
export type ExpirySummaryEntry = Static<typeof ExpiryEntry>;
export type WalletPrediction = Static<typeof WalletPredictionResource>;
