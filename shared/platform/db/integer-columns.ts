/**
 * The largest value a PostgreSQL `integer` column holds (version numbers, account numbers, stock):
 * a larger number names no row, and reaching the database it fails the query (22003).
 */
export const INTEGER_COLUMN_MAX = 2_147_483_647;
