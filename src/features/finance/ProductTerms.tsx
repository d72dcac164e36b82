/**
 * The rate of a product with its terms right beside it (screens-common: no yield figure without its terms):
 * annual rate for the member's level, term, minimum, how earnings are paid and redemption.
 */
import { useTranslation } from 'react-i18next';
import type { ProductView } from '../../../engine/index';
import { formatAmount } from '../../lib/format';

export function ProductTerms({ product }: { product: ProductView }) {
  const { t, i18n } = useTranslation();
  const money = (v: string) => `${formatAmount(v, { locale: i18n.language })} ${product.currency}`;
  return (
    <div className="product-terms">
      <p className="product-rate">
        <strong dir="ltr">{formatAmount(product.annualRate, { locale: i18n.language })}%</strong>{' '}
        <span className="muted">{t('finance.annualRate')}</span>
      </p>
      <dl className="stat-grid">
        <div>
          <dt>{t('finance.term')}</dt>
          <dd>{t('finance.days', { count: product.termDays })}</dd>
        </div>
        <div>
          <dt>{t('finance.minimum')}</dt>
          <dd>
            <bdi>{money(product.min)}</bdi>
          </dd>
        </div>
        <div>
          <dt>{t('finance.maximum')}</dt>
          <dd>
            <bdi>{money(product.max)}</bdi>
          </dd>
        </div>
      </dl>
      <p className="terms">{t('finance.termsLine', { days: product.termDays })}</p>
    </div>
  );
}
