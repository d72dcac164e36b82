/**
 * The market and the house's risk (every operator; the kill switch: admins): where prices come from, per
 * pair the house's net position (what members hold, reversed), its value at the index and the contract
 * side's PnL, each venue's state in the pair's index, and a switch that stops new orders in one pair.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminMarketPair, AdminMarketVenue } from '../../../contract/admin/model';
import { ActionDialog, Details, Notice, QueryStatus } from '../components';
import { adminCall } from '../api';
import { useAdminQuery, useFormatTime } from '../hooks';
import { useSession } from '../session';

const VENUE_STATE = {
  used: 'market.venueUsed',
  stale: 'market.venueStale',
  outlier: 'market.venueOutlier',
  unlisted: 'market.venueUnlisted',
} as const satisfies Record<AdminMarketVenue['state'], string>;

const MODE = {
  simulated: 'market.modeSimulated',
  venues: 'market.modeVenues',
  none: 'market.modeNone',
} as const;

export function MarketScreen() {
  const { t } = useTranslation();
  const time = useFormatTime();
  const { can } = useSession();
  const query = useAdminQuery('GET /api/admin/market', {});
  const [switching, setSwitching] = useState<AdminMarketPair | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const m = query.data;

  async function toggle(pair: AdminMarketPair, reason: string) {
    const after = await adminCall('POST /api/admin/market/halt', {
      symbol: pair.symbol,
      halted: !pair.halted,
      reason,
    });
    setSwitching(null);
    setNotice(t(after.halted ? 'market.haltedDone' : 'market.resumedDone', { pair: pair.symbol }));
    query.reload();
  }

  return (
    <section className="admin-screen" aria-labelledby="market-title">
      <header className="admin-screen-head">
        <h1 id="market-title">{t('market.title')}</h1>
        <span className="admin-head-actions">
          <button type="button" className="button" onClick={query.reload}>
            {t('common.refresh')}
          </button>
        </span>
      </header>
      <Notice text={notice} />
      <QueryStatus status={query.status} error={query.error} onRetry={query.reload} empty={!m} />
      {m && (
        <>
          <p>{t(MODE[m.mode])}</p>
          <div className="admin-summary">
            <Details
              rows={[
                { label: t('market.cash'), value: `${m.cash} USDT` },
                { label: t('market.pnl'), value: m.pnl === null ? t('market.noPnl') : `${m.pnl} USDT` },
                { label: t('field.time'), value: time(m.time) },
              ]}
            />
          </div>
          {m.pairs.length === 0 ? (
            <p className="admin-state">{t('common.empty')}</p>
          ) : (
            <div className="admin-table-wrap">
              <table className="admin-table">
                <thead>
                  <tr>
                    <th scope="col">{t('market.pair')}</th>
                    <th scope="col">{t('market.source')}</th>
                    <th scope="col">{t('market.index')}</th>
                    <th scope="col">{t('market.net')}</th>
                    <th scope="col">{t('market.exposure')}</th>
                    <th scope="col">{t('market.contractPnl')}</th>
                    <th scope="col">{t('market.trading')}</th>
                    {can('admin') && <th scope="col">{t('field.actions')}</th>}
                  </tr>
                </thead>
                <tbody>
                  {m.pairs.map((p) => (
                    <tr key={p.symbol}>
                      <th scope="row">{p.symbol}</th>
                      <td>
                        {p.source ?? '—'}
                        {p.stale && (
                          <>
                            {' '}
                            <strong className="admin-error-text">{t('market.stale')}</strong>
                          </>
                        )}
                        {p.venues.length > 0 && (
                          <ul className="admin-legs" aria-label={t('market.venues', { pair: p.symbol })}>
                            {p.venues.map((v) => (
                              <li key={v.venue}>
                                {v.venue}: {t(VENUE_STATE[v.state])}
                                {v.price !== null && <span className="admin-amount"> {v.price}</span>}
                                {v.time !== null && <span> ({time(v.time)})</span>}
                              </li>
                            ))}
                          </ul>
                        )}
                      </td>
                      <td className="admin-amount">{p.indexPrice ?? '—'}</td>
                      <td className="admin-amount">{p.net}</td>
                      <td className="admin-amount">{p.exposure ?? '—'}</td>
                      <td className="admin-amount">{p.contractPnl ?? '—'}</td>
                      <td>
                        {p.halted ? (
                          <>
                            <strong className="admin-error-text">
                              {t('market.halted', { time: time(p.haltedAt) })}
                            </strong>
                            {p.haltReason && <div>{p.haltReason}</div>}
                          </>
                        ) : (
                          t('market.open')
                        )}
                      </td>
                      {can('admin') && (
                        <td>
                          <button
                            type="button"
                            className={`button ${p.halted ? 'primary' : 'danger'}`}
                            aria-label={t(p.halted ? 'market.resumeTitle' : 'market.haltTitle', {
                              pair: p.symbol,
                            })}
                            onClick={() => setSwitching(p)}
                          >
                            {t(p.halted ? 'market.resume' : 'market.halt')}
                          </button>
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <p className="admin-hint">{t('market.staleHint')}</p>
        </>
      )}
      {switching && (
        <ActionDialog
          title={t(switching.halted ? 'market.resumeTitle' : 'market.haltTitle', { pair: switching.symbol })}
          confirmLabel={t(switching.halted ? 'market.resume' : 'market.halt')}
          reason="audit"
          danger={!switching.halted}
          onConfirm={(reason) => toggle(switching, reason)}
          onClose={() => setSwitching(null)}
        >
          <p>{t(switching.halted ? 'market.resumeHint' : 'market.haltHint')}</p>
        </ActionDialog>
      )}
    </section>
  );
}
