/** API.md: demo mode says so on every screen. The badge opens an explanation (issue 5: the demo tools). */
import { useTranslation } from 'react-i18next';
import { isDemoMode } from '../api/config';
import { popupStore } from './popup-store';

export function DemoBadge({ demo = isDemoMode() }: { demo?: boolean }) {
  const { t } = useTranslation();
  if (!demo) return null;
  return (
    <button
      type="button"
      className="demo-badge"
      aria-label={t('demo.badgeLabel')}
      onClick={() => popupStore.open('demo')}
    >
      {t('demo.badge')}
    </button>
  );
}
