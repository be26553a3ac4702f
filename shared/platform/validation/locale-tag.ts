import { Type } from 'typebox';

/**
 * A language tag as clients send them: a language of two or three letters, then subtags such as a
 * region or a script (`en`, `en-GB`, `fr-CA`, `zh-Hant-TW`). Tags are compared without regard to case.
 */
export const LOCALE_TAG_PATTERN = '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$';

export function LocaleTag(description: string) {
  return Type.String({ pattern: LOCALE_TAG_PATTERN, maxLength: 35, description });
}

/** The longest `?locale=` a member may ask for: longer is no locale anyone speaks, and is stored. */
export const MAX_REQUESTED_LOCALE_LENGTH = 64;

/**
 * A locale a client asks for (`?locale=`): any text up to MAX_REQUESTED_LOCALE_LENGTH characters.
 * rewards-interface says only "string, optional", so what is not a usable tag is kept as asked
 * and the default is used (usableLocale), never refused.
 */
export function RequestedLocale(description: string) {
  return Type.String({ maxLength: MAX_REQUESTED_LOCALE_LENGTH, description });
}

/**
 * A language, then subtags of 1 to 8 letters or digits: BCP 47's extensions and private use start
 * with a one-letter subtag (`en-US-u-ca-gregory`, `de-x-formal`).
 */
const REQUESTED_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;

/**
 * The language tag a requested locale names, or undefined when it names none. `_` is read as `-`:
 * Java's and Android's `Locale.toString()` give `en_US`.
 */
export function usableLocale(requested: string | undefined): string | undefined {
  const tag = requested?.replaceAll('_', '-');
  return tag && REQUESTED_TAG.test(tag) ? tag : undefined;
}
