/** API.md: demo mode says so on every screen. The badge opens an explanation (issue 5: the demo tools). */
import { useTranslation } from 'react-i18next';
import { isDemoMode } from '../api/config';
import { useSiteDemo } from '../api/site-config';
import { popupStore } from '../state/popup-store';

/**
 * Shown when the app talks to a simulation: the in-browser engine, or a server whose getsite says `demo`.
 * `shell`: the build-time copy (src/app/shell/StaticShell.tsx). A live build cannot know at build time what
 * its server will say, so its copy carries `data-site-demo-only` and CSS shows it only under
 * `<html data-site-demo>`, which index.html's head script sets from the last getsite answer before paint.
 */
export function DemoBadge({ shell = false }: { shell?: boolean }) {
  const { t } = useTranslation();
  const demo = useSiteDemo();
  const liveShell = shell && !isDemoMode();
  if (!demo && !liveShell) return null;
  return (
    <button
      type="button"
      className="demo-badge"
      data-site-demo-only={liveShell ? '' : undefined}
      aria-label={t('demo.badgeLabel')}
      onClick={() => popupStore.open('demo')}
    >
      {t('demo.badge')}
    </button>
  );
}
