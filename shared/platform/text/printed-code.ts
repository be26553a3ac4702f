/** How a kind of code is printed: its letters' case and, for codes read out in groups, each group's length. */
export interface CodeForm {
  letterCase: 'upper' | 'lower';
  /** Characters between the dashes; then dashes and spaces typed anywhere in a code are not part of it. */
  groupLength?: number;
}

/**
 * A code as a person typed it, in the form codes of its kind are printed in, so that it matches
 * however it was copied: spaces around it dropped and its letters in the form's case (`y86pahyr `
 * is `Y86PAHYR`); in a grouped form, dashes and spaces anywhere dropped too and the groups made
 * again (`abcd efghjkmn` is `ABCD-EFGH-JKMN`).
 */
export function inPrintedForm(typed: string, form: CodeForm): string {
  const code = typed.trim();
  const cased = form.letterCase === 'upper' ? code.toUpperCase() : code.toLowerCase();
  if (form.groupLength === undefined) return cased;
  // Code points, not UTF-16 units: a group never splits a character.
  const characters = [...cased.replace(/[\s-]+/gu, '')];
  const groups: string[] = [];
  for (let start = 0; start < characters.length; start += form.groupLength)
    groups.push(characters.slice(start, start + form.groupLength).join(''));
  return groups.join('-');
}
