/**
 * An isolated position's margin ratio (liquidation at 100%) and the funding a position paid or received
 * (issue 13). A cross position's ratio is the cross account's, shown once above the list (CrossAccount).
 */
import { useTranslation } from 'react-i18next';
import type { LivePosition } from '../../../engine/index';
import { formatAmount } from '../../lib/format';

export function PositionRisk({ p }: { p: LivePosition }) {
  const { t, i18n } = useTranslation();
  return (
    <dl className="stat-grid">
      {p.marginMode === 'isolated' && (
        <div>
          <dt>{t('trade.marginRatio')}</dt>
          <dd dir="ltr">{p.marginRatio}%</dd>
        </div>
      )}
      <div>
        <dt>{t('trade.fundingPaid')}</dt>
        <dd dir="ltr">{formatAmount(p.fundingPaid, { decimals: 4, locale: i18n.language })}</dd>
      </div>
    </dl>
  );
}
