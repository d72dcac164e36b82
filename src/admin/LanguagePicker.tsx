/** The console's language, listed by each language's own name (as the member app's picker). */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, isLanguageCode } from '../i18n/languages';
import { chooseAdminLanguage } from './i18n';

export function LanguagePicker() {
  const { t, i18n } = useTranslation();
  const id = useId();
  return (
    <div className="admin-language">
      <label htmlFor={id}>{t('common.language')}</label>
      <select
        id={id}
        value={i18n.language}
        onChange={(e) => {
          if (isLanguageCode(e.target.value)) void chooseAdminLanguage(i18n, e.target.value);
        }}
      >
        {LANGUAGES.map((l) => (
          <option key={l.code} value={l.code} lang={l.code}>
            {l.name}
          </option>
        ))}
      </select>
    </div>
  );
}
