/**
 * The language switch on the first screen (issue 26 item 8): a globe in the header of /home, /login and
 * /register, opening the language picker (each language named in itself). The build-time shell
 * renders the same button in the same place, so the header does not move when the app takes over.
 */
import { useTranslation } from 'react-i18next';
import { popupStore } from '../state/popup-store';
import { Icon } from '../ui/icons';

/**
 * The first screens (/home, where the app opens, and /login, /register): where the switch is in the header. Not
 * on the other tabs, whose titles and sync chip already fill a 360 px header in the longer languages.
 */
export function showsLanguageButton(pathname: string): boolean {
  return pathname === '/home' || pathname === '/login' || pathname === '/register';
}

export function LanguageButton() {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="icon-button lang-button"
      aria-label={t('language.title')}
      aria-haspopup="dialog"
      onClick={() => popupStore.open('language')}
    >
      <Icon name="globe" />
    </button>
  );
}
