import type { ConsentDescriptions } from './consent-type.entity.js';

/** The text a member is shown of a consent type, and the locale it is written in. */
export interface ChosenDescription {
  locale: string;
  description: string;
}

/**
 * The description for the locale a member asked for (docs/consents.md#locales): the locale itself;
 * else one in the same language (`fr-CA` asked, `fr` written, or the other way round); else the
 * type's default locale. Tags are compared without regard to case, as BCP 47 has it.
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
  const wanted = requested.toLowerCase();
  const language = languageOf(wanted);
  const sorted = [defaultLocale, ...written.filter((locale) => locale !== defaultLocale).toSorted()];
  return (
    sorted.find((locale) => locale.toLowerCase() === wanted) ??
    sorted.find((locale) => locale.toLowerCase() === language) ??
    sorted.find((locale) => languageOf(locale.toLowerCase()) === language)
  );
}

function languageOf(locale: string): string {
  return locale.split('-')[0]!;
}
