/** A position's margin ratio (liquidation at 100%) and the funding it paid or received (issue 13). */
import { useTranslation } from 'react-i18next';
import type { LivePosition } from '../../../engine/index';
import { formatAmount } from '../../lib/format';

export function PositionRisk({ p }: { p: LivePosition }) {
  const { t, i18n } = useTranslation();
  return (
    <dl className="stat-grid">
      <div>
        <dt>{t('trade.marginRatio')}</dt>
        <dd dir="ltr">{p.marginRatio}%</dd>
      </div>
      <div>
        <dt>{t('trade.fundingPaid')}</dt>
        <dd dir="ltr">{formatAmount(p.fundingPaid, { decimals: 4, locale: i18n.language })}</dd>
      </div>
    </dl>
  );
}
