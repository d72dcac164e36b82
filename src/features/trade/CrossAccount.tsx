/**
 * The cross margin account, shown once above the positions (issue 24): one margin ratio for every cross
 * position - total maintenance margin / (wallet balance + total unrealised PnL), liquidation at 100% - with
 * its wallet balance, unrealised PnL and maintenance margin. Computed on the device with the engine's own
 * liveCross (what /api/position/list answers as `cross`), in demo and live mode alike.
 */
import { useTranslation } from 'react-i18next';
import type { CrossView } from '../../../engine/index';
import { signOf } from '../../lib/decimal';
import { Amount } from '../../ui/Amount';

export function CrossAccount({ cross }: { cross: CrossView }) {
  const { t } = useTranslation();
  const pnlSign = signOf(cross.unrealisedPnl);
  const ratio = Number(cross.marginRatio);
  return (
    <section className="record" aria-labelledby="cross-account-title">
      <div className="record-head">
        <strong id="cross-account-title">{t('trade.crossAccount')}</strong>
      </div>
      <dl className="stat-grid">
        <div>
          <dt>{t('trade.accountRatio')}</dt>
          <dd className={ratio >= 80 ? 'down-text' : undefined}>
            <Amount value={cross.marginRatio} kind="percent" unit="%" />
          </dd>
        </div>
        <div>
          <dt>{t('trade.walletBalance')}</dt>
          <dd>
            <Amount value={cross.walletBalance} />
          </dd>
        </div>
        <div>
          <dt>{t('trade.unrealised')}</dt>
          <dd className={pnlSign > 0 ? 'up-text' : pnlSign < 0 ? 'down-text' : undefined}>
            <Amount value={cross.unrealisedPnl} sign />
          </dd>
        </div>
        <div>
          <dt>{t('trade.maintenanceMargin')}</dt>
          <dd>
            <Amount value={cross.maintenanceMargin} rounding="half-up" />
          </dd>
        </div>
      </dl>
      <p className="hint">{t('trade.crossRatioHint')}</p>
    </section>
  );
}
