/** The bits of a claim's perceptual hash (ocr/perceptual-hash.ts), as PostgreSQL's bit(256) column keeps it. */
export const PERCEPTUAL_HASH_BITS = 256;

/**
 * The most bits in which two claims' perceptual hashes (ocr/perceptual-hash.ts) may differ for the
 * later to be a DUPLICATE of the earlier (docs/receipts.md#automated-checks). Chosen from the
 * distances test/bench/perceptual-hash-distances.ts prints (docs/performance.md#perceptual-hash).
 */
export const DUPLICATE_IMAGE_MAX_DISTANCE = 16;
