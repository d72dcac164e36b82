/** Demo mode only: the prices on this screen come from the simulator, never a real market. */
import { useTranslation } from 'react-i18next';
import { useSiteDemo } from '../api/site-config';
import { useFeedLive } from '../lib/feed';
import { StableLabel } from './StableLabel';

export function SimulatedNote() {
  const demo = useSiteDemo();
  const { t } = useTranslation();
  const live = useFeedLive();
  return (
    <div className="market-note">
      {demo && <p className="demo-note">{t('market.simulated')}</p>}
      <p className={`feed-state ${live ? 'feed-live' : 'feed-wait'}`} role="status">
        <span aria-hidden="true">{live ? '●' : '○'} </span>
        <StableLabel
          text={live ? t('market.feedLive') : t('market.feedWaiting')}
          alternatives={[t('market.feedLive'), t('market.feedWaiting')]}
        />
      </p>
    </div>
  );
}
