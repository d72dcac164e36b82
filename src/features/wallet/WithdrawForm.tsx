/**
 * The withdrawal form: network, address (checked as it is typed), amount with fee and amount received,
 * and the security key. It only edits; the page's withdrawal machine validates and sends.
 */
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { AddressKind, SavedAddressView, WithdrawFeeQuote } from '../../../engine/index';
import { Amount, useFigure } from '../../ui/Amount';
import { type FieldErrors, type FieldReason, type WithdrawalForm } from '../../machines/withdrawal-rules';
import { Field, SelectField } from '../../ui/Field';
import { checkTypedAddress } from './address-check';
import { cleanAmount } from '../../lib/amount';
import { NetworkChoice, networkLabel } from '../../ui/NetworkChoice';

export interface WithdrawFormProps {
  form: WithdrawalForm;
  errors: FieldErrors;
  /** The engine's minimum; null until known (then no hint: the engine still refuses below it). */
  minimum: string | null;
  available: string | undefined;
  /** The member's saved addresses on the chosen network (the address book), offered to pick from. */
  saved?: readonly SavedAddressView[];
  /** The whitelist is on: withdrawals only to saved addresses past their hold. */
  whitelist?: boolean;
  /** What the typed address is to the platform (another member's, ours): a warning under the field. */
  destinationKind?: AddressKind;
  quote: WithdrawFeeQuote | null;
  busy: boolean;
  /** Why the server refused the last submission (catalogue text), kept until the member edits. */
  failure?: string | null;
  onEdit: (patch: Partial<WithdrawalForm>) => void;
  onSubmit: () => void;
}

export function WithdrawForm({
  form,
  errors,
  minimum,
  available,
  saved = [],
  whitelist = false,
  destinationKind = null,
  quote,
  busy,
  failure,
  onEdit,
  onSubmit,
}: WithdrawFormProps) {
  const { t } = useTranslation();
  const figure = useFigure();
  const money = (v: string) => figure(v);
  const message = (reason: FieldReason | undefined | null) =>
    reason
      ? t(`withdraw.errors.${reason}`, {
          min: minimum === null ? '' : money(minimum),
          network: networkLabel(form.network),
        })
      : undefined;
  // Checked as typed: what can no longer become a valid address shows at once; empty waits for the submit.
  const typed = checkTypedAddress(form.address, form.network);
  const addressError = message(errors.address ?? typed);
  const warning =
    destinationKind === 'member'
      ? t('withdraw.warnMember')
      : destinationKind === 'platform'
        ? t('withdraw.warnPlatform')
        : null;
  const picked = saved.find((e) => e.address === form.address.trim());

  function submit(e: FormEvent) {
    e.preventDefault();
    onSubmit();
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-busy={busy}>
      <NetworkChoice value={form.network} onChange={(network) => onEdit({ network })} disabled={busy} />
      {whitelist && <p className="hint">{t('withdraw.whitelistOn')}</p>}
      {saved.length > 0 && (
        <SelectField
          label={t('withdraw.fromBook')}
          name="saved"
          value={picked?.id ?? ''}
          onChange={(id) => {
            const entry = saved.find((e) => e.id === id);
            if (entry) onEdit({ address: entry.address });
          }}
          options={[
            { value: '', label: t('withdraw.fromBookNone') },
            ...saved.map((e) => ({
              value: e.id,
              label: `${e.label} · ${e.address.slice(0, 6)}…${e.address.slice(-4)}`,
            })),
          ]}
        />
      )}
      <Field
        label={t('withdraw.address')}
        name="address"
        autoComplete="off"
        spellCheck={false}
        dir="ltr"
        placeholder={t(
          form.network === 'TRC20' ? 'withdraw.addressPlaceholderTrc' : 'withdraw.addressPlaceholderErc',
        )}
        value={form.address}
        error={addressError}
        hint={warning ?? undefined}
        onChange={(e) => onEdit({ address: e.target.value })}
      />
      <Field
        label={t('withdraw.amount')}
        name="amount"
        inputMode="decimal"
        autoComplete="off"
        value={form.amount}
        error={message(errors.amount)}
        hint={
          <>
            {minimum !== null && t('withdraw.minimum', { min: money(minimum) })}
            {minimum !== null && available !== undefined && ' · '}
            {available !== undefined && t('withdraw.available', { amount: money(available) })}
          </>
        }
        addon={
          available !== undefined && (
            <button type="button" className="button small" onClick={() => onEdit({ amount: available })}>
              {t('withdraw.all')}
            </button>
          )
        }
        onChange={(e) => onEdit({ amount: cleanAmount(e.target.value) })}
      />
      <dl className="detail-list quote" aria-live="polite">
        <dt>{t('withdraw.fee')}</dt>
        <dd>
          <Amount value={quote?.fee} unit="USDT" kind="exact" />
        </dd>
        <dt>{t('withdraw.received')}</dt>
        <dd>
          <Amount value={quote?.received} unit="USDT" kind="exact" />
        </dd>
      </dl>
      <Field
        label={t('wallet.key')}
        name="key"
        type="password"
        autoComplete="off"
        value={form.key}
        error={message(errors.key)}
        onChange={(e) => onEdit({ key: e.target.value })}
      />
      {failure && (
        <p className="form-error" role="alert">
          {failure}
        </p>
      )}
      <button type="submit" className="button primary block" disabled={busy}>
        {busy ? t('withdraw.sending') : t('withdraw.submit')}
      </button>
      <p className="hint">{t('withdraw.arrival')}</p>
    </form>
  );
}
