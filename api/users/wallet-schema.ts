// The wallet predictions as the examples show them (GET /users/{id}/wallet/predictions).

export const WALLET_PREDICTION_EXAMPLE = {
  pointsSpendPrediction: {
    overallSummary: { type: 'MAX_POINTS', summary: { pointsCap: 1000, remainingPoints: 750, percentageUsed: 25 } },
  },
  pointsEarnPrediction: {
    overallSummary: { type: 'MAX_POINTS', summary: { pointsCap: 300, remainingPoints: 100, percentageUsed: 66.66 } },
  },
  pointsExpiryPrediction: {
    overallSummary: {
      type: 'EXPIRY',
      summary: [
        { pointsDueToExpire: 0, timePeriod: 1 },
        { pointsDueToExpire: 40, timePeriod: 7 },
        { pointsDueToExpire: 40, timePeriod: 30 },
        { pointsDueToExpire: 165, timePeriod: 90 },
        { pointsDueToExpire: 425, timePeriod: 365 },
      ],
    },
  },
};
