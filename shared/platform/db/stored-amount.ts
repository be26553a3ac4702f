/** Decimal places of the amounts of money the platform keeps (`numeric(14,4)` columns). */
const AMOUNT_SCALE = 4;

/**
 * An amount as its `numeric(14,4)` column keeps it, so what a route answers and an event carries
 * at once is what is read back later. PostgreSQL rounds the number's decimal text (as the driver
 * sends it) half away from zero; this rounds that same text, not the binary value, which for
 * 1.00005 lies below the half.
 */
export function storedAmount(amount: number): number {
  const [digits, exponent = '0'] = String(amount).split('e');
  const scaled = Number(`${digits}e${Number(exponent) + AMOUNT_SCALE}`);
  return Number(`${Math.sign(scaled) * Math.round(Math.abs(scaled))}e-${AMOUNT_SCALE}`);
}
