/**
 * How deep any JSON body may nest arrays and objects. Far beyond what a payload, a rule's
 * conditions or a profile needs; far below what blows the stack of the recursive code a document
 * meets later (the error envelope echoing a value, MikroORM's JSON conversion, the conditions
 * compiler), which a body nested 8,000 levels turned into 500s (issue 17).
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether valid JSON text nests deeper than `maxDepth`: a scan of the text, skipping strings, with
 * no recursion of its own, so the deepest document costs one pass over its characters.
 */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c)
        index++; // a backslash: the next character is escaped
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x7b || code === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (code === 0x7d || code === 0x5d) {
      depth--;
    }
  }
  return false;
}
