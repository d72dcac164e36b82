/**
 * Price alerts on the notification centre (docs/SPEC.md §12): set one on a pair (the price rises to, falls to,
 * or moves by a percentage either way from now), see the active ones and cancel them. The list is the
 * device's replica (`priceAlerts`); setting and cancelling go through the outbox, so offline they wait and
 * are applied once. The engine fires them (API.md "Price alerts") and the centre lists what fired.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { compareDecimal, parseAmountText, type AlertView } from '../../../engine/index';
import { toastStore } from '../../state/toast-store';
import { cleanAmount } from '../../lib/amount';
import { formatFigure, formatTime } from '../../lib/format';
import { useQuotes } from '../../lib/use-quotes';
import { useSiteDemo } from '../../api/site-config';
import { Amount } from '../../ui/Amount';
import { Field, SelectField } from '../../ui/Field';
import { PendingRows } from '../../ui/PendingRows';
import { ReplicaList } from '../../ui/ReplicaList';
import { Segmented } from '../../ui/Segmented';
import { sendWrite, appWrites } from '../../sync/app-writes';
import { appSync } from '../../sync/app';
import { useReplica } from '../../sync/live';
import { usePendingMutations } from '../../sync/pending';

type Kind = 'above' | 'below' | 'move';

export function AlertsSection() {
  const { t } = useTranslation();
  const demo = useSiteDemo();
  const { quotes } = useQuotes();
  const alerts = useReplica<AlertView>('priceAlerts');
  const pending = usePendingMutations(['/api/alert/create', '/api/alert/cancel']);
  const [symbol, setSymbol] = useState('');
  const [kind, setKind] = useState<Kind>('above');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const pair = symbol || quotes[0]?.symbol || 'BTC/USDT';
  const latest = quotes.find((q) => q.symbol === pair)?.latest;
  const active = { ...alerts, records: alerts.records.filter((a) => a.status === 'active') };

  function validate(): string | undefined {
    if (value.trim() === '') return t('notifications.alerts.required');
    const parsed = parseAmountText(value);
    if (parsed === null || parsed === 0n) return t('notifications.alerts.invalid');
    if (kind === 'move' && (compareDecimal(value, '0.1') < 0 || compareDecimal(value, '50') > 0))
      return t('errors.e6201');
    if (latest && kind === 'above' && compareDecimal(value, latest) <= 0)
      return t('notifications.alerts.notAbove');
    if (latest && kind === 'below' && compareDecimal(value, latest) >= 0)
      return t('notifications.alerts.notBelow');
    return undefined;
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = validate();
    setError(found);
    if (found) return;
    setBusy(true);
    try {
      const body =
        kind === 'move'
          ? ({ symbol: pair, kind, percent: value } as const)
          : ({ symbol: pair, kind, price: value } as const);
      const outcome = await sendWrite('/api/alert/create', body);
      setValue('');
      if (outcome.queued) return;
      toastStore.show(t('notifications.alerts.setDone'), 'success');
      appSync().requestPull();
    } catch {
      // Refused: the catalogue message was shown; nothing was set.
    } finally {
      setBusy(false);
    }
  }

  async function cancel(id: string) {
    try {
      const outcome = await sendWrite('/api/alert/cancel', { id });
      if (outcome.queued) return;
      toastStore.show(t('notifications.alerts.cancelled'), 'success');
      appSync().requestPull();
    } catch {
      // Presented by the client.
    }
  }

  const kindLabel: Record<Kind, string> = {
    above: t('notifications.alerts.above'),
    below: t('notifications.alerts.below'),
    move: t('notifications.alerts.move'),
  };

  return (
    <section className="card" aria-labelledby="alerts-title">
      <h2 id="alerts-title" className="section-title">
        {t('notifications.alerts.title')}
      </h2>
      {demo && <p className="demo-note">{t('notifications.alerts.demo')}</p>}
      <form className="form alert-form" onSubmit={(e) => void submit(e)} noValidate>
        <SelectField
          label={t('notifications.alerts.pair')}
          name="symbol"
          value={pair}
          onChange={(v) => {
            setSymbol(v);
            setError(undefined);
          }}
          options={(quotes.length ? quotes.map((q) => q.symbol) : [pair]).map((s) => ({
            value: s,
            label: s,
          }))}
        />
        <Segmented<Kind>
          label={t('notifications.alerts.condition')}
          value={kind}
          onChange={(k) => {
            setKind(k);
            setError(undefined);
          }}
          options={(['above', 'below', 'move'] as const).map((k) => ({ value: k, label: kindLabel[k] }))}
        />
        <Field
          label={kind === 'move' ? t('notifications.alerts.percent') : t('notifications.alerts.price')}
          name="value"
          inputMode="decimal"
          autoComplete="off"
          value={value}
          onChange={(e) => {
            setValue(cleanAmount(e.target.value));
            setError(undefined);
          }}
          error={error}
          hint={
            <>
              {t('notifications.alerts.now')} <Amount value={latest} kind="price" symbol={pair} unit="USDT" />
            </>
          }
        />
        <button type="submit" className="button primary block" disabled={busy}>
          {t('notifications.alerts.set')}
        </button>
      </form>

      <PendingRows
        rows={pending}
        label={t('outbox.title')}
        describe={(row) =>
          row.name === '/api/alert/cancel'
            ? t('notifications.alerts.cancel')
            : `${String(row.args.symbol)} · ${kindLabel[row.args.kind as Kind] ?? ''} ${String(
                row.args.price ?? `${String(row.args.percent)}%`,
              )}`
        }
        onDismiss={(id) => void appWrites().acknowledge(id)}
      />

      <h3 className="subsection-title">{t('notifications.alerts.active')}</h3>
      <ReplicaList
        label={t('notifications.alerts.active')}
        data={active}
        itemKey={(a) => a.id}
        emptyText={t('notifications.alerts.none')}
        renderItem={(a) => (
          <div className="alert-row">
            <div>
              <div className="record-head">
                <strong>{a.symbol}</strong>
              </div>
              <div className="record-meta">
                <AlertCondition alert={a} />
              </div>
              <div className="record-meta">{formatTime(a.createdAt)}</div>
            </div>
            <button
              type="button"
              className="button small"
              onClick={() => void cancel(a.id)}
              aria-label={t('notifications.alerts.cancelOne', { symbol: a.symbol })}
            >
              {t('notifications.alerts.cancel')}
            </button>
          </div>
        )}
      />
    </section>
  );
}

/** "Rises to 90,000.00", "Falls to ...", "Moves ±2.5% from 87,000.00". */
export function AlertCondition({ alert: a }: { alert: AlertView }) {
  const { t, i18n } = useTranslation();
  if (a.kind === 'move')
    return (
      <>
        {t('notifications.alerts.describeMove', {
          percent: formatFigure(a.percent ?? '0', { kind: 'exact' }, i18n.language),
        })}{' '}
        <Amount value={a.basePrice} kind="price" symbol={a.symbol} />
      </>
    );
  return (
    <>
      {a.kind === 'above' ? t('notifications.alerts.above') : t('notifications.alerts.below')}{' '}
      <Amount value={a.price} kind="price" symbol={a.symbol} />
    </>
  );
}
