import type { ConsentDescriptions } from './consent-type.entity.js';

/** The text a member is shown of a consent type, and the locale it is written in. */
export interface ChosenDescription {
  locale: string;
  description: string;
}

/**
 * The description for the locale a member asked for (docs/consents.md#locales): RFC 4647 lookup
 * (`zh-Hant-TW`, then `zh-Hant`, then `zh`), so a written script or region wins over another of the
 * same language; else one in the same language (`fr` asked, `fr-CA` written); else the type's
 * default locale. Tags are compared without regard to case, as BCP 47 has it.
 */
export function chooseDescription(
  descriptions: ConsentDescriptions,
  defaultLocale: string,
  requested: string | undefined,
): ChosenDescription {
  const locale = (requested && closestLocale(Object.keys(descriptions), defaultLocale, requested)) ?? defaultLocale;
  return { locale, description: descriptions[locale]! };
}

/** Among several of the requested language, the default locale first, then the others in a fixed order. */
function closestLocale(written: string[], defaultLocale: string, requested: string): string | undefined {
  const byTag = new Map(written.map((locale) => [locale.toLowerCase(), locale]));
  const found = lookupTags(requested.toLowerCase())
    .map((tag) => byTag.get(tag))
    .find((locale) => locale !== undefined);
  if (found) return found;
  const language = languageOf(requested.toLowerCase());
  const sorted = [defaultLocale, ...written.filter((locale) => locale !== defaultLocale).toSorted()];
  return sorted.find((locale) => languageOf(locale.toLowerCase()) === language);
}

/**
 * RFC 4647 §3.4 lookup's ranges: the tag, then the tag with its last subtag dropped, and so on down
 * to the language; a single-letter subtag left at the end (an extension's start) is dropped with it.
 */
function lookupTags(tag: string): string[] {
  const subtags = tag.split('-');
  const tags: string[] = [];
  for (let length = subtags.length; length > 0; length -= 1) {
    if (subtags[length - 1]!.length === 1) continue;
    tags.push(subtags.slice(0, length).join('-'));
  }
  return tags;
}

function languageOf(locale: string): string {
  return locale.split('-')[0]!;
}
