/**
 * The language switch on the first screen (issue 26 item 8): a globe in the header of the tab screens and of
 * /login and /register, opening the language picker (each language named in itself). The build-time shell
 * renders the same button in the same place, so the header does not move when the app takes over.
 */
import { useTranslation } from 'react-i18next';
import { popupStore } from '../state/popup-store';
import { Icon } from '../ui/icons';

/** The screens a member may start on: where the switch is in the header. */
export function showsLanguageButton(pathname: string, tab: boolean): boolean {
  return tab || pathname === '/login' || pathname === '/register';
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
