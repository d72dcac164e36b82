/**
 * /user/buycoin: quick buy of USDT from a simulated desk. The quote shows the reference rate, the desk's
 * rate and its spread next to the total, before anything is bought; the fiat payment is simulated in demo
 * mode and the page says so. A live server without a payment provider says so in its site config
 * (`quickBuy: false`) and answers 403: the page then explains that quick buy is unavailable and buys nothing.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { useSiteDemo, useSiteQuickBuy } from '../../api/site-config';
import { toastStore } from '../../state/toast-store';
import { formatFigure } from '../../lib/format';
import { Amount } from '../../ui/Amount';
import { toFailure, type Failure } from '../../machines/failure';
import { Field, SelectField } from '../../ui/Field';
import { OfflineNote } from '../../ui/OfflineNote';
import { cleanAmount } from '../../lib/amount';
import { FailureAlert } from '../../ui/FailureAlert';
import { FormCard } from '../../ui/FormCard';
import { buyAmountRule, currencyFor, CURRENCIES, MAX_BUY, MIN_BUY, type BuycoinQuote } from './buycoin';
import './account.css';
import '../../ui/auth.css';

const QUOTE_DELAY_MS = 400;

export function BuycoinPage() {
  const demo = useSiteDemo();
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState(() => currencyFor(locale));
  const [touched, setTouched] = useState(false);
  const [quote, setQuote] = useState<BuycoinQuote | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [busy, setBusy] = useState(false);
  /** A 403 answer: no payment provider is connected. */
  const [refusedByServer, setRefusedByServer] = useState(false);
  /** False when the site config (or a 403 answer) says no payment provider is connected. */
  const available = useSiteQuickBuy() !== false && !refusedByServer;
  const ruleKey = buyAmountRule(amount);
  const maxText = formatFigure(MAX_BUY, { decimals: 0 }, locale);

  const refused = (error: unknown) => {
    const f = toFailure(error);
    if (f.code === 403) setRefusedByServer(true);
    else setFailure(f);
  };

  // Quote as the member types, once the amount is valid; a newer input supersedes an older answer.
  useEffect(() => {
    setQuote(null);
    if (ruleKey || !available) return;
    let live = true;
    const timer = setTimeout(() => {
      api.call('/api/buycoin/quote', { amount, currency }, { silent: true }).then(
        (q) => live && setQuote(q),
        (e: unknown) => live && refused(e),
      );
    }, QUOTE_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [amount, currency, ruleKey, available]);

  const buy = async (e: React.FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (ruleKey || !quote || !available) return;
    setBusy(true);
    setFailure(null);
    try {
      const result = await api.call('/api/buycoin/buy', { amount, currency }, { silent: true });
      toastStore.show(
        t('buycoin.done', { amount: formatFigure(result.amount, { kind: 'exact' }, locale) }),
        'success',
      );
      setAmount('');
      setTouched(false);
    } catch (error) {
      refused(error);
    } finally {
      setBusy(false);
    }
  };

  const fiat = (v: string) => `${formatFigure(v, { kind: 'exact' }, locale)}\u00a0${currency}`;
  return (
    <div className="page account">
      <OfflineNote />
      <FormCard title={t('buycoin.title')}>
        {demo && <p className="demo-note">{t('buycoin.demoNote')}</p>}
        {!available && (
          <p className="form-error" role="status">
            {t('buycoin.unavailable')}
          </p>
        )}
        <form className="form" noValidate onSubmit={(e) => void buy(e)} aria-busy={busy}>
          <Field
            label={t('buycoin.amount')}
            name="amount"
            inputMode="decimal"
            dir="ltr"
            value={amount}
            onChange={(e) => {
              setFailure(null);
              setAmount(cleanAmount(e.target.value));
            }}
            onBlur={() => setTouched(true)}
            hint={t('buycoin.limits', { min: MIN_BUY, max: maxText })}
            error={touched && ruleKey ? t(ruleKey, { min: MIN_BUY, max: maxText }) : undefined}
          />
          <SelectField
            label={t('buycoin.currency')}
            name="currency"
            value={currency}
            onChange={setCurrency}
            options={CURRENCIES.map((c) => ({ value: c, label: c }))}
          />
          <div aria-live="polite">
            {quote && (
              <dl className="detail-list">
                <dt>{t('buycoin.referenceRate')}</dt>
                <dd>
                  <bdi>{fiat(quote.referenceRate)}</bdi>
                </dd>
                <dt>{t('buycoin.rate')}</dt>
                <dd>
                  <bdi>{fiat(quote.rate)}</bdi>
                </dd>
                <dt>{t('buycoin.spread')}</dt>
                <dd>
                  <bdi>{quote.spread}%</bdi>
                </dd>
                <dt>{t('buycoin.total')}</dt>
                <dd>
                  <bdi>{fiat(quote.total)}</bdi>
                </dd>
                <dt>{t('buycoin.receive')}</dt>
                <dd>
                  <Amount value={quote.amount} kind="exact" unit="USDT" />
                </dd>
              </dl>
            )}
          </div>
          <FailureAlert failure={failure} />
          <button type="submit" className="button primary block" disabled={busy || !quote || !available}>
            {t('buycoin.buy')}
          </button>
        </form>
      </FormCard>
    </div>
  );
}
