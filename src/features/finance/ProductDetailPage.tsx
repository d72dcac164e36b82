/**
 * /finance/productDetail?id=: every field of one product (SPEC.md §3), the annual rate by VIP level with the
 * member's own level marked, the dates that apply if bought now, and the way to subscribe.
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { ProductView } from '../../../engine/index';
import { useUser } from '../../state/user-store';
import { formatTime } from '../../lib/format';
import { Amount, useFigure } from '../../ui/Amount';
import { OfflineNote } from '../../ui/OfflineNote';
import { QueryState } from '../../ui/QueryState';
import { ProductTerms } from './ProductTerms';
import { useProduct, useProductId } from './use-product';
import { vipLevel } from './vip';
import { PATHS, pathWith } from '../../lib/paths';
import '../../ui/forms.css';
import '../../ui/market.css';
import './finance.css';

function Details({ product }: { product: ProductView }) {
  const { t } = useTranslation();
  const vip = vipLevel(useUser()?.vip);
  const figure = useFigure();
  const unit = product.currency;
  const money = (v: string, decimals?: number) => <Amount value={v} unit={unit} decimals={decimals} />;
  const rows: [string, ReactNode][] = [
    [
      t('finance.dailyRate'),
      <Amount key="rate" value={product.interestRate} kind="percent" decimals={4} unit="%" />,
    ],
    [t('finance.personalLimit'), money(product.personalLimit)],
    [t('finance.personalRemaining'), money(product.personalRemaining)],
    [t('finance.totalAmount'), money(product.totalAmount)],
    [t('finance.remaining'), money(product.remaining)],
    [
      t('finance.roundTime'),
      `${formatTime(product.startTime, 'YYYY-MM-DD')} – ${formatTime(product.endTime, 'YYYY-MM-DD')}`,
    ],
    [t('finance.interestDate'), formatTime(product.interestDate)],
    [t('finance.redemptionDay'), formatTime(product.redemptionDay)],
    // Earnings on the minimum can be below a cent: shown at the money module's 6 places (DECISIONS.md).
    [t('finance.expectedOnMin', { min: figure(product.min, { unit }) }), money(product.expectedReturn, 6)],
    [t('finance.dailyOnMin', { min: figure(product.min, { unit }) }), money(product.dailyEarnings, 6)],
  ];
  return (
    <>
      <section className="card" aria-labelledby="product-heading">
        <h2 id="product-heading" className="section-title">
          {product.name}
        </h2>
        <ProductTerms product={product} />
        <dl className="figure-rows">
          {rows.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{typeof value === 'string' ? <bdi className="amount">{value}</bdi> : value}</dd>
            </div>
          ))}
        </dl>
        <ul className="terms plain-list">
          <li>{t('finance.ruleVip')}</li>
          <li>{t('finance.ruleRedemption', { days: product.termDays })}</li>
          <li>{t('finance.ruleNoEarly')}</li>
          {product.establishedOnly && <li>{t('finance.ruleEstablished')}</li>}
        </ul>
      </section>
      <section className="card" aria-labelledby="rates-heading">
        <h2 id="rates-heading" className="section-title">
          {t('finance.ratesByVip')}
        </h2>
        <table className="rate-table">
          <thead>
            <tr>
              <th scope="col">{t('finance.level')}</th>
              <th scope="col">{t('finance.annualRateLabel')}</th>
            </tr>
          </thead>
          <tbody>
            {product.rates.map((r) => (
              <tr key={r.vip} aria-current={r.vip === vip ? 'true' : undefined}>
                <td>VIP{r.vip}</td>
                <td dir="ltr">{figure(r.annualRate, { kind: 'percent' })}%</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="terms">{t('finance.ratesNote', { days: product.termDays })}</p>
      </section>
      {product.status === 'open' ? (
        <Link className="button primary block" to={pathWith(PATHS.financeConfirm, { id: product.id })}>
          {t('finance.subscribe')}
        </Link>
      ) : (
        <p className="demo-note">{t('finance.soldOut')}</p>
      )}
    </>
  );
}

export function ProductDetailPage() {
  const { t } = useTranslation();
  const id = useProductId();
  const query = useProduct(id);
  return (
    <div className="page finance-detail">
      <OfflineNote />
      {query.status === 'ready' ? (
        <Details product={query.data} />
      ) : (
        <QueryState status={query.status} error={query.error} onRetry={query.reload} />
      )}
      <Link className="text-link" to={PATHS.finance}>
        {t('finance.backToList')}
      </Link>
    </div>
  );
}
