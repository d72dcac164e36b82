/**
 * An isolated position's margin ratio (liquidation at 100%) and the funding a position paid or received
 * (issue 13). A cross position's ratio is the cross account's, shown once above the list (CrossAccount).
 */
import { useTranslation } from 'react-i18next';
import type { LivePosition } from '../../../engine/index';
import { Amount } from '../../ui/Amount';

export function PositionRisk({ p }: { p: LivePosition }) {
  const { t } = useTranslation();
  return (
    <dl className="stat-grid">
      {p.marginMode === 'isolated' && (
        <div>
          <dt>{t('trade.marginRatio')}</dt>
          <dd>
            <Amount value={p.marginRatio} kind="percent" unit="%" />
          </dd>
        </div>
      )}
      <div>
        <dt>{t('trade.fundingPaid')}</dt>
        <dd>
          <Amount value={p.fundingPaid} unit="USDT" rounding="half-up" />
        </dd>
      </div>
    </dl>
  );
}
