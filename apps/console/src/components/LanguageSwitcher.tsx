import { currentLanguage, type Language, LANGUAGES, setLanguage, useTranslation } from '../i18n';

/** The console's language, chosen here and kept in this browser (the browser's language decides until then). */
export function LanguageSwitcher() {
  const { t } = useTranslation();
  return (
    <label className="language-switcher">
      <span>{t('shell.language')}</span>
      <select value={currentLanguage()} onChange={(e) => setLanguage(e.target.value as Language)}>
        {LANGUAGES.map((l) => (
          <option key={l.code} value={l.code} lang={l.code}>
            {l.name}
          </option>
        ))}
      </select>
    </label>
  );
}
