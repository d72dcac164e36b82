/**
 * /user/recharge: choose TRC-20 or ERC-20, get the member's exclusive address (QR code and copy), and in
 * demo mode simulate a payment to it; deposits show their confirmations until credited (SPEC.md §4).
 */
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { useSiteDemo } from '../../api/site-config';
import type { WireNetwork } from '../../../engine/index';
import { CopyButton } from '../../ui/CopyButton';
import { CachedNote } from '../../ui/Freshness';
import { QueryState } from '../../ui/QueryState';
import { useCached } from '../../sync/cache';
import { AddressQr } from './AddressQr';
import { DemoPayPanel } from './DemoPayPanel';
import { NetworkChoice, networkLabel } from '../../ui/NetworkChoice';
import { RecentDeposits } from './RecentDeposits';
import { loadProfile } from '../../state/use-profile';
import '../../ui/wallet.css';

export function RechargePage() {
  const demo = useSiteDemo();
  const { t } = useTranslation();
  const [network, setNetwork] = useState<WireNetwork>('TRC20');
  const [refreshKey, setRefreshKey] = useState(0);
  const load = useCallback(() => api.call('/api/recharge/address', { network }, { silent: true }), [network]);
  const address = useCached(`address:${network}`, load, { member: true });
  const onCredited = useCallback(() => void loadProfile().catch(() => undefined), []);
  const a = address.status === 'ready' ? address.data : undefined;

  return (
    <div className="page recharge">
      <CachedNote at={address.at} stale={address.stale} />
      <section className="card" aria-labelledby="recharge-title">
        <h2 id="recharge-title" className="section-title">
          {t('recharge.title')}
        </h2>
        <div className="form">
          <NetworkChoice value={network} onChange={setNetwork} />
          {a ? (
            <div className="address-box">
              <AddressQr address={a.address} />
              <p className="field-label" id="address-label">
                {t('recharge.address', { network: networkLabel(a.network) })}
              </p>
              <p className="address" dir="ltr" aria-labelledby="address-label" translate="no">
                {a.address}
              </p>
              <CopyButton text={a.address} label={t('recharge.copyAddress')} />
              <ul className="hint-list">
                <li>{t('recharge.onlyUsdt', { network: networkLabel(a.network) })}</li>
                <li>{t('recharge.confirmationsNeeded', { n: a.confirmations })}</li>
              </ul>
            </div>
          ) : (
            <QueryState status={address.status} error={address.error} onRetry={address.reload} />
          )}
        </div>
      </section>

      {demo && a && (
        <DemoPayPanel network={a.network} address={a.address} onSent={() => setRefreshKey((k) => k + 1)} />
      )}

      <RecentDeposits refreshKey={refreshKey} onCredited={onCredited} />
    </div>
  );
}
