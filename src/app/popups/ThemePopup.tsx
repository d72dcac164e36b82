/** Theme mode: light, dark or follow the system, applied at once and stored. */
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../ui/Dialog';
import { THEME_CHOICES, setTheme, useThemeChoice } from '../../state/theme';

export function ThemePopup({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const choice = useThemeChoice();
  return (
    <Dialog title={t('theme.title')} onClose={onClose}>
      <ul className="choice-list">
        {THEME_CHOICES.map((c) => (
          <li key={c}>
            <button type="button" className="choice" aria-pressed={c === choice} onClick={() => setTheme(c)}>
              {t(`theme.${c}`)}
            </button>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
