/**
 * /financial (the Finance tab) and /finance/finance: the managed-finance products, each rate shown with its
 * term, minimum and redemption rules, plus the way to the member's subscriptions, the mining centre and
 * live prices. Managed finance needs VIP1 or above (API.md), said before anyone fills a form.
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { ProductView } from '../../../engine/index';
import { api } from '../../api';
import { useSiteDemo } from '../../api/site-config';
import { useUser } from '../../state/user-store';
import { useFigure } from '../../ui/Amount';
import { CachedNote } from '../../ui/Freshness';
import { QueryState } from '../../ui/QueryState';
import { StatusBadge } from '../../ui/StatusBadge';
import { useCached } from '../../sync/cache';
import { ProductTerms } from './ProductTerms';
import { vipLevel } from './vip';
import { PATHS, pathWith } from '../../lib/paths';
import '../../ui/market.css';
import './finance.css';

type Filter = 'all' | 'stable' | 'growth' | 'premium';
const FILTERS: Filter[] = ['all', 'stable', 'growth', 'premium'];

function ProductCard({ product }: { product: ProductView }) {
  const { t } = useTranslation();
  const figure = useFigure();
  const headingId = `product-${product.id}`;
  return (
    <li className="card product-card" aria-labelledby={headingId}>
      <div className="section-head">
        <h3 id={headingId} className="product-name">
          {product.name}
        </h3>
        {product.status === 'sold out' ? (
          <StatusBadge status="ended" />
        ) : (
          <span className="badge badge-good">{t(`finance.type.${product.type}`, product.type)}</span>
        )}
      </div>
      <ProductTerms product={product} />
      <p className="terms" dir="auto">
        {t('finance.leftThisRound', {
          amount: figure(product.remaining, { unit: product.currency }),
        })}
      </p>
      <Link className="button primary block" to={pathWith(PATHS.financeProductDetail, { id: product.id })}>
        {t('finance.details', { name: product.name })}
      </Link>
    </li>
  );
}

export function FinancePage() {
  const demo = useSiteDemo();
  const { t } = useTranslation();
  const user = useUser();
  const [filter, setFilter] = useState<Filter>('all');
  const query = useCached(
    `products:${filter}`,
    () => api.call('/api/product/getlist', filter === 'all' ? {} : { type: filter }, { silent: true }),
    { member: true },
  );
  const list = query.data?.list ?? [];
  const vip = vipLevel(user?.vip);
  return (
    <div className="page finance">
      <CachedNote at={query.at} stale={query.stale} />
      <nav className="finance-links" aria-label={t('finance.more')}>
        <Link className="button small" to={PATHS.financeOrder}>
          {t('finance.myOrders')}
        </Link>
        <Link className="button small" to={PATHS.financeMachine}>
          {t('mining.title')}
        </Link>
        <Link className="button small" to={PATHS.financeLivecoin}>
          {t('finance.livecoin')}
        </Link>
      </nav>
      <section className="card" aria-labelledby="finance-heading">
        <h2 id="finance-heading" className="section-title">
          {t('finance.title')}
        </h2>
        <p className="terms">{t('finance.intro')}</p>
        {vip < 1 && (
          <p className="demo-note">
            {t('finance.needVip')} <Link to={PATHS.userVip}>{t('finance.toVip')}</Link>
          </p>
        )}
        {demo && <p className="terms">{t('finance.simulated')}</p>}
        <div className="segmented" role="group" aria-label={t('finance.filter')}>
          {FILTERS.map((f) => (
            <button
              key={f}
              type="button"
              className="segment"
              aria-pressed={filter === f}
              onClick={() => setFilter(f)}
            >
              {t(`finance.type.${f}`)}
            </button>
          ))}
        </div>
      </section>
      {query.status === 'ready' && list.length > 0 && (
        <ul className="product-list" aria-label={t('finance.title')}>
          {list.map((p) => (
            <ProductCard key={p.id} product={p} />
          ))}
        </ul>
      )}
      <QueryState
        status={query.status}
        error={query.error}
        onRetry={query.reload}
        isEmpty={list.length === 0}
        emptyText={t('finance.empty')}
      />
    </div>
  );
}
