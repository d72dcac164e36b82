/**
 * /user/transfer: send USDT to another member by username, phone or e-mail. No security key (SPEC.md §5);
 * a confirmation shows who receives what before anything is sent, and the result is shown in place.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { describeError, errorText } from '../../api/errors';
import type { RecipientPreview, TransferRecord } from '../../../engine/index';
import { api } from '../../api';
import { failureText } from '../../ui/failure-text';
import { toastStore } from '../../state/toast-store';
import { Amount, useFigure } from '../../ui/Amount';
import { isUnanswered, toFailure, type Failure } from '../../machines/failure';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Field } from '../../ui/Field';
import { OfflineNote } from '../../ui/OfflineNote';
import { PendingOutgoing, PendingRows } from '../../ui/PendingRows';
import { appWrites, sendWrite } from '../../sync/app-writes';
import { usePendingMutations, waitingOutgoing } from '../../sync/pending';
import { cleanAmount } from '../../lib/amount';
import { useSiteLimits } from '../../api/site-config';
import { validateTransfer, type TransferErrors } from './transfer-rules';
import { useProfile } from '../../state/use-profile';
import { PATHS } from '../../lib/paths';
import { SECOND_FACTOR_REQUIRED, useSecurityOverview, type SecondFactor } from '../../lib/security';
import { useOnlineStatus } from '../../pwa/online';
import { NeedsConnection } from '../../ui/NeedsConnection';
import { SecondFactorField, secondFactorError, secondFactorProblem } from '../../ui/SecondFactorField';
import '../../ui/wallet.css';

export function TransferPage() {
  const { t } = useTranslation();
  const profile = useProfile();
  const [form, setForm] = useState({ account: '', amount: '' });
  const [errors, setErrors] = useState<TransferErrors>({});
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [done, setDone] = useState<TransferRecord | null>(null);
  // Transfers need no security key (SPEC.md §5); a member with two-factor authentication confirms them with a
  // code or a passkey (API.md "Member security"), which cannot wait in the outbox: online only for them.
  const security = useSecurityOverview();
  const twoFactorOn = security.data?.twoFactor.on ?? false;
  const online = useOnlineStatus();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  // Who the transfer reaches (masked name and level), looked up before the sheet; null offline.
  const [recipient, setRecipient] = useState<RecipientPreview | null>(null);
  const [refusal, setRefusal] = useState<Failure | null>(null);
  const [looking, setLooking] = useState(false);
  const figure = useFigure();
  const money = (v: string) => figure(v);
  const available = profile.data?.available;
  const minTransfer = useSiteLimits()?.minTransfer;
  const TRANSFER_MINIMUM = minTransfer ?? '--';
  const pending = usePendingMutations('/api/transfer/submit');
  const waiting = pending.filter((row) => row.state === 'waiting').length;
  // A queued transfer was answered: the confirmed balance may have changed, read it again.
  const lastWaiting = useRef(waiting);
  useEffect(() => {
    if (waiting < lastWaiting.current) void profile.reload();
    lastWaiting.current = waiting;
  }, [waiting, profile]);

  function edit(patch: Partial<typeof form>) {
    setForm((f) => ({ ...f, ...patch }));
    setErrors((e) => {
      const next = { ...e };
      for (const k of Object.keys(patch)) delete next[k as keyof TransferErrors];
      return next;
    });
    setFailure(null);
    if ('account' in patch) {
      setRecipient(null);
      setRefusal(null);
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const target = e.currentTarget;
    const found = validateTransfer(form, profile.data ?? null, available, minTransfer);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      focusFirstInvalid(target, found.account ? 'account' : 'amount');
      return;
    }
    // Offline the transfer waits in the outbox: the server checks the recipient when it is sent.
    if (!online) {
      setRecipient(null);
      setConfirming(true);
      return;
    }
    void lookUp(target);
  }

  /** The recipient's masked name and level before the sheet; nobody (3000, 222, 3002...) stays on the form. */
  async function lookUp(target: EventTarget) {
    setLooking(true);
    try {
      const found = await api.call(
        '/api/transfer/recipient',
        { account: form.account.trim() },
        { silent: true },
      );
      setRecipient(found);
      setConfirming(true);
    } catch (error) {
      const f = toFailure(error);
      if (isUnanswered(f)) {
        setRecipient(null);
        setConfirming(true);
      } else if (f.code === 429) {
        setFailure(f);
      } else {
        setRefusal(f);
        focusFirstInvalid(target, 'account');
      }
    } finally {
      setLooking(false);
    }
  }

  function confirmWithCode() {
    if (!twoFactorOn) return void confirm({});
    const problem = secondFactorProblem(code);
    if (problem) return setCodeError(secondFactorError(problem, t));
    void confirm({ code: code.replace(/\s+/g, '') });
  }

  async function confirm(factor: SecondFactor) {
    setBusy(true);
    try {
      // The mutation id is fixed here, at confirmation: however often it is pushed, it is applied once. The
      // second factor is never written to the device (kept in this tab's memory, like a withdrawal's key).
      const outcome = await sendWrite(
        '/api/transfer/submit',
        { account: form.account.trim(), amount: form.amount, ...factor },
        { secret: ['code', 'passkey'] },
      );
      setCode('');
      setConfirming(false);
      setForm({ account: '', amount: '' });
      // Offline (or the answer was lost): it waits in the outbox, listed below as waiting.
      if (outcome.queued) return;
      const record = outcome.data;
      setDone(record);
      toastStore.show(
        t('transfer.sent', { amount: figure(record.amount, { kind: 'exact' }), account: record.account }),
        'success',
      );
      void profile.reload();
    } catch (error) {
      // Presented like a failed call's (toast); it also stays on the form until the member changes something.
      setConfirming(false);
      setCode('');
      const failed = toFailure(error);
      if (failed.code === SECOND_FACTOR_REQUIRED) security.reload();
      setFailure(failed);
    } finally {
      setBusy(false);
    }
  }

  const accountError = errors.account
    ? t(`transfer.errors.${errors.account}`)
    : refusal
      ? failureText(refusal, t)
      : undefined;
  const amountError = errors.amount
    ? t(`wallet.amountError.${errors.amount}`, { min: TRANSFER_MINIMUM })
    : undefined;

  return (
    <div className="page transfer">
      <OfflineNote />
      {done && (
        <section className="card success-card" role="status" aria-labelledby="transfer-done">
          <h2 id="transfer-done" className="section-title">
            {t('transfer.doneTitle')}
          </h2>
          <p>
            {t('transfer.sent', { amount: figure(done.amount, { kind: 'exact' }), account: done.account })}
          </p>
        </section>
      )}
      <section className="card" aria-labelledby="transfer-title">
        <div className="section-head">
          <h2 id="transfer-title" className="section-title">
            {t('transfer.title')}
          </h2>
          <Link to={PATHS.orderTransferRecord} className="text-link">
            {t('transfer.records')}
          </Link>
        </div>
        <NeedsConnection when={twoFactorOn} note={t('security.needsConnection')}>
          <form className="form" onSubmit={submit} noValidate>
            <Field
              label={t('transfer.account')}
              name="account"
              autoComplete="off"
              hint={t('transfer.accountHint')}
              value={form.account}
              error={accountError}
              onChange={(e) => edit({ account: e.target.value })}
            />
            <Field
              label={t('transfer.amount')}
              name="amount"
              inputMode="decimal"
              autoComplete="off"
              value={form.amount}
              error={amountError}
              hint={
                <>
                  {available !== undefined
                    ? t('transfer.available', { amount: money(available), min: TRANSFER_MINIMUM })
                    : t('transfer.minimum', { min: TRANSFER_MINIMUM })}{' '}
                  <PendingOutgoing amount={waitingOutgoing(pending)} />
                </>
              }
              addon={<span className="unit">USDT</span>}
              onChange={(e) => edit({ amount: cleanAmount(e.target.value) })}
            />
            {failure && (
              <p className="form-error" role="alert">
                {errorText(describeError(failure.code, failure.msg), (k, p) => t(k, { ...p }))}
              </p>
            )}
            <button type="submit" className="button primary block" disabled={looking} aria-busy={looking}>
              {looking ? t('transfer.lookingUp') : t('transfer.next')}
            </button>
            <p className="hint">{t('transfer.rules')}</p>
          </form>
        </NeedsConnection>
      </section>

      {pending.length > 0 && (
        <section className="card" aria-labelledby="transfer-pending">
          <h2 id="transfer-pending" className="section-title">
            {t('outbox.title')}
          </h2>
          <PendingRows
            rows={pending}
            label={t('outbox.title')}
            sign="-"
            describe={(row) => t('records.transferTo', { account: String(row.args.account ?? '') })}
            onDismiss={(id) => void appWrites().acknowledge(id)}
          />
        </section>
      )}

      {confirming && (
        <ConfirmDialog
          title={t('transfer.confirmTitle')}
          confirmLabel={busy ? t('transfer.sending') : t('transfer.confirm')}
          busy={busy}
          disabled={twoFactorOn && !online}
          onClose={() => setConfirming(false)}
          onConfirm={confirmWithCode}
        >
          <dl className="detail-list">
            <dt>{t('transfer.to')}</dt>
            <dd>{form.account.trim()}</dd>
            <dt>{t('transfer.holder')}</dt>
            <dd>
              {recipient ? (
                <bdi>
                  {recipient.name} · {recipient.vip.toUpperCase()}
                </bdi>
              ) : (
                t('transfer.recipientLater')
              )}
            </dd>
            <dt>{t('transfer.amount')}</dt>
            <dd>
              <Amount value={form.amount} unit="USDT" kind="exact" />
            </dd>
            <dt>{t('transfer.fee')}</dt>
            <dd>
              <bdi>{money('0')} USDT</bdi>
            </dd>
          </dl>
          <p className="hint">{t('transfer.noKey')}</p>
          {twoFactorOn && (
            <SecondFactorField
              action="transfer"
              code={code}
              onCode={(value) => {
                setCode(value);
                setCodeError(undefined);
              }}
              passkeys={(security.data?.passkeys ?? 0) > 0}
              onPasskey={(passkey) => void confirm({ passkey })}
              error={codeError}
              disabled={busy}
            />
          )}
        </ConfirmDialog>
      )}
    </div>
  );
}

/** A refused form moves focus to its first invalid field, so a screen reader hears what to fix (WCAG 3.3.1). */
function focusFirstInvalid(form: EventTarget, name: string): void {
  if (form instanceof HTMLFormElement) {
    const field = form.elements.namedItem(name);
    if (field instanceof HTMLElement) field.focus();
  }
}
