/**
 * /finance/confirm?id=: the subscription. The amount is checked inline against the product's minimum and
 * maximum, the personal limit, what is left this round and the available cash before anything is sent; the
 * estimate updates as the member types; the security key is asked in a dialog; then /finance/order.
 */
import { useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { MemberProfile, ProductView } from '../../../engine/index';
import { api } from '../../api';
import { toastStore } from '../../state/toast-store';
import { Amount, useFigure } from '../../ui/Amount';
import { Field } from '../../ui/Field';
import { KeyDialog } from '../../ui/KeyDialog';
import { NeedsConnection } from '../../ui/NeedsConnection';
import { OfflineNote } from '../../ui/OfflineNote';
import { QueryState } from '../../ui/QueryState';
import { cleanAmount } from '../../lib/amount';
import { loadProfile, useProfile } from '../../state/use-profile';
import { ProductTerms } from './ProductTerms';
import { checkBuyAmount, estimateEarnings } from './buy-rules';
import { useProduct, useProductId } from './use-product';
import { PATHS, pathWith } from '../../lib/paths';
import '../../ui/forms.css';
import '../../ui/market.css';
import './finance.css';

function BuyForm({ product, profile }: { product: ProductView; profile: MemberProfile }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [amount, setAmount] = useState('');
  const [touched, setTouched] = useState(false);
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const figure = useFigure();
  const money = (v: string, decimals?: number) => figure(v, { unit: product.currency, decimals });
  const reason = checkBuyAmount(amount, product, profile.available);
  const limits = {
    min: money(product.min),
    max: money(product.max),
    personal: money(product.personalRemaining),
    round: money(product.remaining),
  };
  const error = touched && reason ? t(`finance.amountError.${reason}`, limits) : undefined;
  const estimate = reason ? null : estimateEarnings(amount, product.annualRate, product.termDays);

  function submit(e: FormEvent) {
    e.preventDefault();
    setTouched(true);
    if (reason) {
      formRef.current?.querySelector<HTMLInputElement>('[name="amount"]')?.focus();
      return;
    }
    setAsking(true);
  }

  async function buy(key: string) {
    setBusy(true);
    try {
      await api.call('/api/product/buy', { id: product.id, amount, key });
      toastStore.show(
        t('finance.bought', {
          amount: figure(amount, { kind: 'exact', unit: product.currency }),
          name: product.name,
        }),
        'success',
      );
      void loadProfile().catch(() => undefined);
      void navigate(PATHS.financeOrder);
    } catch {
      // The client already showed the catalogue message (3007, 3009, 3010, 4011, 4034...).
      setBusy(false);
    }
  }

  return (
    // The key dialog is a sibling, not a child, of this form: nested forms submit the outer one natively.
    <>
      <form ref={formRef} className="form" onSubmit={submit} noValidate>
        {/* A purchase needs the security key, which never waits on the device: online only. */}
        <NeedsConnection>
          <Field
            label={t('finance.amount')}
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            name="amount"
            error={error}
            hint={t('finance.amountHint', { ...limits, available: money(profile.available) })}
            onChange={(e) => setAmount(cleanAmount(e.target.value))}
            onBlur={() => setTouched(true)}
            addon={<span className="unit">{product.currency}</span>}
          />
          <div className="estimate" aria-live="polite">
            {estimate ? (
              <p>
                {t('finance.estimate', {
                  daily: money(estimate.daily, 6),
                  total: money(estimate.total, 6),
                  days: product.termDays,
                  rate: figure(product.annualRate, { kind: 'percent' }),
                })}
              </p>
            ) : (
              <p className="muted">{t('finance.estimateEmpty')}</p>
            )}
          </div>
          <button type="submit" className="button primary block" disabled={busy}>
            {t('finance.subscribe')}
          </button>
        </NeedsConnection>
      </form>
      {asking && (
        <KeyDialog
          title={t('finance.confirmTitle', { name: product.name })}
          confirmLabel={t('finance.pay', {
            amount: figure(amount, { kind: 'exact', unit: product.currency }),
          })}
          busy={busy}
          onClose={() => setAsking(false)}
          onConfirm={(key) => void buy(key)}
        >
          {/* Label and value rows (the value moves to its own row, whole, when both do not fit). */}
          <dl className="figure-rows">
            <div>
              <dt>{t('finance.amount')}</dt>
              <dd>
                <Amount value={amount} kind="exact" unit={product.currency} />
              </dd>
            </div>
            <div>
              <dt>{t('finance.annualRateLabel')}</dt>
              <dd>
                <Amount value={product.annualRate} kind="percent" unit="%" />
              </dd>
            </div>
            <div>
              <dt>{t('finance.term')}</dt>
              <dd>{t('finance.days', { count: product.termDays })}</dd>
            </div>
          </dl>
          <p className="terms">{t('finance.termsLine', { days: product.termDays })}</p>
        </KeyDialog>
      )}
    </>
  );
}

export function ConfirmPage() {
  const { t } = useTranslation();
  const id = useProductId();
  const product = useProduct(id);
  const profile = useProfile();
  const ready = product.status === 'ready' && profile.status === 'ready';
  return (
    <div className="page finance-confirm">
      <OfflineNote />
      {ready ? (
        <section className="card" aria-labelledby="confirm-heading">
          <h2 id="confirm-heading" className="section-title">
            {product.data.name}
          </h2>
          <ProductTerms product={product.data} />
          <BuyForm product={product.data} profile={profile.data} />
        </section>
      ) : (
        <QueryState
          status={product.status === 'error' || profile.status === 'error' ? 'error' : 'loading'}
          error={product.error ?? profile.error}
          onRetry={() => {
            product.reload();
            profile.reload();
          }}
        />
      )}
      <Link className="text-link" to={pathWith(PATHS.financeProductDetail, { id })}>
        {t('finance.backToDetail')}
      </Link>
    </div>
  );
}
