/**
 * Demo mode: the prices on this screen come from the simulator, never a real market. In both modes, the feed's
 * state beside it: "● Live" while prices stream; "○ Reconnecting…" while the socket waits; offline, the dot
 * is off and the prices are marked stale with the time they are of ("○ Prices as of 12:04").
 */
import { useTranslation } from 'react-i18next';
import { useSiteDemo } from '../api/site-config';
import { useFeedState } from '../lib/feed';
import { lastPriceTime } from '../lib/price-time';
import { useOnlineStatus } from '../pwa/online';
import { formatTime } from '../lib/format';
import { StableLabel } from './StableLabel';

export function SimulatedNote() {
  const demo = useSiteDemo();
  const { t } = useTranslation();
  const online = useOnlineStatus();
  const feed = useFeedState();
  // Before the feed has even loaded, an offline browser means no prices can arrive.
  const state = online ? feed : 'offline';
  const at = lastPriceTime();
  const offline =
    at === null ? t('market.feedOffline') : t('market.feedOfflineAt', { time: formatTime(at, 'HH:mm') });
  const text =
    state === 'live' ? t('market.feedLive') : state === 'offline' ? offline : t('market.feedWaiting');
  return (
    <div className="market-note">
      {demo && <p className="demo-note">{t('market.simulated')}</p>}
      <p
        className={`feed-state feed-${state === 'live' ? 'live' : state === 'offline' ? 'offline' : 'wait'}`}
        role="status"
      >
        <span aria-hidden="true">{state === 'live' ? '●' : '○'} </span>
        <StableLabel text={text} alternatives={[t('market.feedLive'), t('market.feedWaiting'), offline]} />
      </p>
    </div>
  );
}
