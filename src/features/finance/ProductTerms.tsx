/**
 * The rate of a product with its terms right beside it (screens-common: no yield figure without its terms):
 * annual rate for the member's level, term, minimum, how earnings are paid and redemption.
 */
import { useTranslation } from 'react-i18next';
import type { ProductView } from '../../../engine/index';
import { Amount } from '../../ui/Amount';

export function ProductTerms({ product }: { product: ProductView }) {
  const { t } = useTranslation();
  const money = (v: string) => <Amount value={v} unit={product.currency} wrapUnit />;
  return (
    <div className="product-terms">
      <p className="product-rate">
        <strong>
          <Amount value={product.annualRate} kind="percent" unit="%" />
        </strong>{' '}
        <span className="muted">{t('finance.annualRate')}</span>
      </p>
      <dl className="stat-grid">
        <div>
          <dt>{t('finance.term')}</dt>
          <dd>{t('finance.days', { count: product.termDays })}</dd>
        </div>
        <div>
          <dt>{t('finance.minimum')}</dt>
          <dd>{money(product.min)}</dd>
        </div>
        <div>
          <dt>{t('finance.maximum')}</dt>
          <dd>{money(product.max)}</dd>
        </div>
      </dl>
      <p className="terms">{t('finance.termsLine', { days: product.termDays })}</p>
    </div>
  );
}
