import { describe, expect, it } from 'vitest';
import { chooseDescription } from '../../shared/consents/choose-description.js';

const TEXT = { en: 'English', 'en-GB': 'British', fr: 'Français', 'pt-BR': 'Português' };

// issue 23: "each consent stored with the locale's description (falling back to the default locale, recorded as
// such)"; the consents brief: "else the same language (fr-CA → fr); else the type's defaultLocale".
describe('chooseDescription', () => {
  it.each([
    ['en-GB', 'en-GB'],
    ['EN-gb', 'en-GB'],
    ['en-US', 'en'],
    ['fr', 'fr'],
    ['fr-CA', 'fr'],
    ['pt', 'pt-BR'],
    ['pt-PT', 'pt-BR'],
    ['de', 'en'],
    [undefined, 'en'],
  ])('asked %s, shows %s', (asked, locale) => {
    expect(chooseDescription(TEXT, 'en', asked)).toEqual({ locale, description: TEXT[locale as keyof typeof TEXT] });
  });

  it('falls back to the default locale, whichever it is', () => {
    expect(chooseDescription(TEXT, 'fr', 'de-AT')).toEqual({ locale: 'fr', description: 'Français' });
  });

  it('among several of the same language: the language alone, else the default locale, else the first by name', () => {
    expect(chooseDescription({ 'en-US': 'US', en: 'plain', 'en-AU': 'AU' }, 'en-US', 'en-NZ').locale).toBe('en');
    expect(chooseDescription({ 'en-US': 'US', 'en-AU': 'AU' }, 'en-US', 'en-NZ').locale).toBe('en-US');
    expect(chooseDescription({ 'en-US': 'US', 'en-AU': 'AU', fr: 'FR' }, 'fr', 'en-NZ').locale).toBe('en-AU');
  });

  // docs/consents.md#locales: "RFC 4647 lookup: the locale asked for, then with its last subtag dropped, one at a
  // time (a single-letter subtag left at the end is dropped with it)"
  it('finds the script and region asked for before another of the same language', () => {
    const chinese = { en: 'English', 'zh-Hans': '简体', 'zh-Hant': '繁體' };
    expect(chooseDescription(chinese, 'en', 'zh-Hant-TW').locale).toBe('zh-Hant');
    expect(chooseDescription(chinese, 'en', 'ZH-HANT-HK').locale).toBe('zh-Hant');
    expect(chooseDescription(chinese, 'en', 'zh-Hans-CN').locale).toBe('zh-Hans');
    expect(chooseDescription(chinese, 'en', 'zh').locale).toBe('zh-Hans');
    expect(chooseDescription({ en: 'plain', 'en-GB': 'GB', 'en-US': 'US' }, 'en', 'en-US-u-ca-gregory').locale).toBe(
      'en-US',
    );
    expect(chooseDescription({ 'de-CH': 'CH', de: 'plain' }, 'de', 'de-CH-x-formal').locale).toBe('de-CH');
  });
});
