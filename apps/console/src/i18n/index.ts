import i18n from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next, useTranslation } from 'react-i18next';
import { de } from './de';
import { en } from './messages';

/** The console's languages, each named in itself for the switcher. */
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'de', name: 'Deutsch' },
] as const;
export type Language = (typeof LANGUAGES)[number]['code'];

/** Where a person's choice is kept (the browser's language decides until they choose). */
export const LANGUAGE_STORAGE_KEY = 'dts-language';

/**
 * One i18next instance for the console, initialised on import with both catalogues bundled (no
 * loading step, so the first render is already in the person's language): the language stored by
 * the switcher, else the browser's first supported one, else English.
 */
void i18n
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({
    resources: { en: { translation: en }, de: { translation: de } },
    supportedLngs: LANGUAGES.map((l) => l.code),
    nonExplicitSupportedLngs: true,
    fallbackLng: 'en',
    detection: { order: ['localStorage', 'navigator'], lookupLocalStorage: LANGUAGE_STORAGE_KEY, caches: [] },
    interpolation: { escapeValue: false },
    returnNull: false,
  });

/** The language the console shows now (a region-qualified browser language reduced to its code). */
export function currentLanguage(): Language {
  const code = (i18n.resolvedLanguage ?? i18n.language ?? 'en').slice(0, 2);
  return code === 'de' ? 'de' : 'en';
}

/** The BCP 47 locale for Intl formatting of the current language. */
export function currentLocale(): string {
  return currentLanguage() === 'de' ? 'de-DE' : 'en-GB';
}

/** Switches the console's language and keeps the choice in this browser. */
export function setLanguage(code: Language): void {
  localStorage.setItem(LANGUAGE_STORAGE_KEY, code);
  void i18n.changeLanguage(code);
}

// The page's language follows the console's, for screen readers and hyphenation.
const markDocument = () => {
  if (typeof document !== 'undefined') document.documentElement.lang = currentLanguage();
};
i18n.on('languageChanged', markDocument);
markDocument();

export { i18n, useTranslation };
