/**
 * /user/move: move USDT between the member's own accounts (cash, fund, contract, options, financial), e.g. cash
 * to the contract account before trading contracts. Balances come from the device replica; the move goes
 * through the outbox (docs/OFFLINE.md): offline it is kept and shown as waiting, beside unchanged confirmed
 * balances, and applied exactly once when the connection returns.
 */
import { Fragment, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  assetsView,
  compareDecimal,
  MOVABLE_ACCOUNTS,
  parseAmount,
  parseAmountText,
  SUB_ACCOUNTS,
} from '../../../engine/index';
import { toastStore } from '../../state/toast-store';
import { cleanAmount } from '../../lib/amount';
import { Amount, useFigure } from '../../ui/Amount';
import { appWrites, sendWrite } from '../../sync/app-writes';
import { useReplica } from '../../sync/live';
import type { ReplicaBalance } from '../../sync/member-views';
import { usePendingMutations } from '../../sync/pending';
import { Field, SelectField } from '../../ui/Field';
import { StaleNote } from '../../ui/Freshness';
import { PendingRows } from '../../ui/PendingRows';
import { ReplicaState } from '../../ui/ReplicaList';
import '../../ui/wallet.css';

type Sub = (typeof SUB_ACCOUNTS)[number];
type Movable = (typeof MOVABLE_ACCOUNTS)[number];
type MoveErrors = Partial<Record<'to' | 'amount', string>>;

/**
 * Each account's available USDT (not frozen), exact strings, from the replicated balances: the engine's own
 * assetsView (the /api/account/assets answer), read for its USDT figures only.
 */
export function availableBySub(balances: readonly ReplicaBalance[]): Record<Sub, string> {
  const rows = balances.map((b) => ({ ...b, amount: parseAmount(b.amount) }));
  const view = assetsView(rows, 0n, () => 0n);
  return Object.fromEntries(view.accounts.map((a) => [a.account, a.available])) as Record<Sub, string>;
}

export function MovePage() {
  const { t } = useTranslation();
  const balances = useReplica<ReplicaBalance>('balances');
  const available = availableBySub(balances.records);
  const [form, setForm] = useState<{ from: Movable; to: Movable; amount: string }>({
    from: 'cash',
    to: 'contract',
    amount: '',
  });
  const [errors, setErrors] = useState<MoveErrors>({});
  const [busy, setBusy] = useState(false);
  const pending = usePendingMutations('/api/account/transfer');
  const figure = useFigure();
  const money = (v: string) => figure(v);
  const accountName = (sub: string) => t(`move.accounts.${sub}`);

  function edit(patch: Partial<typeof form>) {
    setForm((f) => ({ ...f, ...patch }));
    setErrors({});
  }

  function validate(): MoveErrors {
    const found: MoveErrors = {};
    if (form.from === form.to) found.to = t('move.errors.same');
    const amount = parseAmountText(form.amount);
    if (form.amount.trim() === '') found.amount = t('move.errors.required');
    else if (amount === null || amount === 0n) found.amount = t('move.errors.invalid');
    else if (compareDecimal(form.amount, available[form.from]) > 0)
      found.amount = t('move.errors.overAvailable', { amount: money(available[form.from]) });
    return found;
  }

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const found = validate();
    setErrors(found);
    if (Object.keys(found).length > 0) {
      const first = e.currentTarget.querySelector<HTMLElement>(found.to ? '[name="to"]' : '[name="amount"]');
      first?.focus();
      return;
    }
    setBusy(true);
    try {
      const outcome = await sendWrite('/api/account/transfer', {
        from: form.from,
        to: form.to,
        amount: form.amount,
      });
      setForm((f) => ({ ...f, amount: '' }));
      // Offline: it waits in the outbox, listed below; its answer arrives as a notice.
      if (outcome.queued) return;
      toastStore.show(
        t('move.done', {
          amount: figure(form.amount, { kind: 'exact' }),
          from: accountName(form.from),
          to: accountName(form.to),
        }),
        'success',
      );
    } catch {
      // Refused: the client presented the catalogue message; nothing moved.
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="page move">
      <StaleNote at={balances.pulledAt} />
      <section className="card" aria-labelledby="move-balances">
        <h2 id="move-balances" className="section-title">
          {t('move.balances')}
        </h2>
        {balances.everLoaded ? (
          <dl className="detail-list">
            {SUB_ACCOUNTS.map((sub) => (
              <Fragment key={sub}>
                <dt>{accountName(sub)}</dt>
                <dd>
                  <Amount value={available[sub]} unit="USDT" />
                </dd>
              </Fragment>
            ))}
          </dl>
        ) : (
          <ReplicaState data={balances} emptyText="" />
        )}
      </section>

      <PendingRows
        rows={pending}
        label={t('outbox.title')}
        describe={(row) =>
          t('move.pendingRow', {
            from: accountName(String(row.args.from)),
            to: accountName(String(row.args.to)),
          })
        }
        onDismiss={(id) => void appWrites().acknowledge(id)}
      />

      <form className="form card" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="move-title">
        <h2 id="move-title" className="section-title">
          {t('move.title')}
        </h2>
        <SelectField
          label={t('move.from')}
          name="from"
          value={form.from}
          onChange={(value) => edit({ from: value as Movable })}
          options={MOVABLE_ACCOUNTS.map((sub) => ({
            value: sub,
            label: t('move.option', { name: accountName(sub), amount: money(available[sub]) }),
          }))}
        />
        <SelectField
          label={t('move.to')}
          name="to"
          value={form.to}
          error={errors.to}
          onChange={(value) => edit({ to: value as Movable })}
          options={MOVABLE_ACCOUNTS.map((sub) => ({ value: sub, label: accountName(sub) }))}
        />
        <Field
          label={t('move.amount')}
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          value={form.amount}
          error={errors.amount}
          hint={t('move.available', { amount: money(available[form.from]) })}
          onChange={(e) => edit({ amount: cleanAmount(e.target.value) })}
        />
        <button type="submit" className="button primary block" disabled={busy}>
          {busy ? t('move.moving') : t('move.submit')}
        </button>
      </form>
    </div>
  );
}
