/** How alike two texts are, from 0 (nothing shared) to 1 (the same): one less the edits per character. */
export function similarity(a: string, b: string): number {
  return 1 - editDistance(a, b) / Math.max(a.length, b.length, 1);
}

/**
 * The word of `words` that `word` is a misreading of, at most `edits(known)` letters from it: never
 * a longer word, as a letter more makes another word ("GROUNDING" is no ROUNDING, "SUPPLIERS" no
 * SUPPLIES).
 */
export function misreadingOf(
  word: string,
  words: readonly string[],
  edits: (known: string) => number,
): string | undefined {
  return words.find((known) => word.length <= known.length && editDistance(word, known) <= edits(known));
}

/** The Levenshtein distance: insertions, deletions and substitutions to turn one text into the other. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    previous = current;
  }
  return previous[b.length]!;
}
