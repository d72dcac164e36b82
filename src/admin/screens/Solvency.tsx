/**
 * Solvency: what the platform owes members against what its wallets hold, as exact decimal strings; and the
 * latest proof-of-reserves snapshot's published total against the same holdings.
 */
import { useTranslation } from 'react-i18next';
import type { Solvency } from '../../../contract/admin/model';
import { Details, ExportButton, QueryStatus } from '../components';
import { csvFilename, type CsvColumn } from '../csv';
import { isoTime, useAdminQuery, useFormatTime } from '../hooks';

type Holding = Solvency['holdings'][number];
const COLUMNS: CsvColumn<Holding>[] = [
  { header: 'network', value: (h) => h.network },
  { header: 'address', value: (h) => h.address },
  { header: 'amount', value: (h) => h.amount },
  { header: 'reported_at', value: (h) => isoTime(h.at) },
];

export function SolvencyScreen() {
  const { t } = useTranslation();
  const time = useFormatTime();
  const query = useAdminQuery('GET /api/admin/solvency', {});
  const s = query.data;
  const short = s ? s.surplus.trim().startsWith('-') : false;
  return (
    <section className="admin-screen" aria-labelledby="solvency-title">
      <header className="admin-screen-head">
        <h1 id="solvency-title">{t('nav.solvency')}</h1>
        <span className="admin-head-actions">
          <button type="button" className="button" onClick={query.reload}>
            {t('common.refresh')}
          </button>
          <ExportButton
            filename={csvFilename('holdings')}
            columns={COLUMNS}
            rows={() => Promise.resolve(s?.holdings ?? [])}
          />
        </span>
      </header>
      <QueryStatus status={query.status} error={query.error} onRetry={query.reload} empty={!s} />
      {s && (
        <>
          <div className={`admin-summary ${short ? 'admin-short' : ''}`}>
            <Details
              rows={[
                { label: t('solvency.liabilities'), value: `${s.liabilities} USDT` },
                { label: t('solvency.holdings'), value: `${s.holdingsTotal} USDT` },
                { label: t(short ? 'solvency.shortfall' : 'solvency.surplus'), value: `${s.surplus} USDT` },
                { label: t('solvency.ratio'), value: s.ratio ?? t('solvency.noRatio') },
              ]}
            />
            {short && (
              <p className="admin-error-text" role="alert">
                {t('solvency.shortWarning')}
              </p>
            )}
          </div>
          <h2>{t('solvency.snapshot')}</h2>
          {s.snapshot ? (
            <div
              className={`admin-summary ${s.snapshot.surplus.trim().startsWith('-') ? 'admin-short' : ''}`}
            >
              {s.snapshot.demo && <p className="admin-state">{t('solvency.snapshotDemo')}</p>}
              <Details
                rows={[
                  { label: t('solvency.snapshotTime'), value: time(s.snapshot.time) },
                  { label: t('solvency.snapshotTotal'), value: `${s.snapshot.total} USDT` },
                  { label: t('solvency.holdings'), value: `${s.holdingsTotal} USDT` },
                  {
                    label: t(
                      s.snapshot.surplus.trim().startsWith('-') ? 'solvency.shortfall' : 'solvency.surplus',
                    ),
                    value: `${s.snapshot.surplus} USDT`,
                  },
                  { label: t('solvency.ratio'), value: s.snapshot.ratio ?? t('solvency.noRatio') },
                  { label: t('solvency.snapshotLeaves'), value: String(s.snapshot.leafCount) },
                  { label: t('solvency.snapshotRoot'), value: s.snapshot.root },
                ]}
              />
              {s.snapshot.surplus.trim().startsWith('-') && (
                <p className="admin-error-text" role="alert">
                  {t('solvency.snapshotShort')}
                </p>
              )}
            </div>
          ) : (
            <p className="admin-state">{t('solvency.noSnapshot')}</p>
          )}
          <h2>{t('solvency.byAccount')}</h2>
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">{t('field.account')}</th>
                <th scope="col">{t('field.amount')}</th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(s.byAccount).map(([account, amount]) => (
                <tr key={account}>
                  <td>{account}</td>
                  <td className="admin-amount">{amount}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <h2>{t('solvency.wallets')}</h2>
          {s.holdings.length === 0 ? (
            <p className="admin-state">{t('common.empty')}</p>
          ) : (
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">{t('field.network')}</th>
                  <th scope="col">{t('field.address')}</th>
                  <th scope="col">{t('field.amount')}</th>
                  <th scope="col">{t('solvency.reportedAt')}</th>
                </tr>
              </thead>
              <tbody>
                {s.holdings.map((h) => (
                  <tr key={`${h.network}-${h.address}`}>
                    <td>{h.network}</td>
                    <td className="admin-mono">{h.address}</td>
                    <td className="admin-amount">{h.amount}</td>
                    <td>{h.at === null ? t('solvency.notReported') : time(h.at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}
