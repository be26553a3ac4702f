import { Type } from 'typebox';

/**
 * A language tag as clients send them: a language of two or three letters, then subtags such as a
 * region or a script (`en`, `en-GB`, `fr-CA`, `zh-Hant-TW`). Tags are compared without regard to case.
 */
export const LOCALE_TAG_PATTERN = '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$';

export function LocaleTag(description: string) {
  return Type.String({ pattern: LOCALE_TAG_PATTERN, maxLength: 35, description });
}
