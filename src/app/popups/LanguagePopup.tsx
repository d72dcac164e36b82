/**
 * The language picker: the twenty languages in their own names, the browser's preferred one first (when it is
 * one of them); choosing one stores it and reloads.
 */
import { useTranslation } from 'react-i18next';
import { chooseLanguage } from '../../i18n';
import { LANGUAGES, preferredLanguage, type LanguageCode } from '../../i18n/languages';
import { Dialog } from '../../ui/Dialog';

export function LanguagePopup({ onClose, reload }: { onClose: () => void; reload?: () => void }) {
  const { t, i18n } = useTranslation();
  const browser = preferredLanguage(navigator.languages?.length ? navigator.languages : [navigator.language]);
  const ordered = [
    ...LANGUAGES.filter((l) => l.code === browser),
    ...LANGUAGES.filter((l) => l.code !== browser),
  ];
  const pick = (code: LanguageCode) => {
    if (code === i18n.language) {
      onClose();
      return;
    }
    chooseLanguage(code, reload);
  };
  return (
    <Dialog title={t('language.title')} onClose={onClose}>
      <p className="hint">{t('language.hint')}</p>
      <ul className="choice-list">
        {ordered.map((l) => (
          <li key={l.code}>
            <button
              type="button"
              className="choice"
              lang={l.code}
              aria-current={l.code === i18n.language ? 'true' : undefined}
              onClick={() => pick(l.code)}
            >
              {l.name}
            </button>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
