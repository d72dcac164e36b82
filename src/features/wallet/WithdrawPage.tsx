/**
 * /user/withdraw and /pay/withdraw, driven by the withdrawal machine (src/machines/withdrawal.ts): the form,
 * a confirmation, the submission (answered 911, "awaiting review": a success), then the review's verdict,
 * announced by the feed's `withdrawal` account event (docs/DECISIONS.md), with a slow read of the list as
 * fallback. Offline, the form is disabled with a note: a withdrawal needs its key, which never waits on the
 * device. A submission whose answer was lost waits in the outbox and is pushed again under the same id.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useMachine } from '@xstate/react';
import { api } from '../../api';
import { describeError, errorText } from '../../api/errors';
import type { DestinationCheck, SavedAddressView, WithdrawalRecord } from '../../../engine/index';
import { toastStore } from '../../state/toast-store';
import { Amount } from '../../ui/Amount';
import { withdrawalMachine } from '../../machines/withdrawal';
import { siteLimits, useSiteLimits } from '../../api/site-config';
import { reviewResultOf } from '../../machines/withdrawal';
import { useOnlineStatus } from '../../pwa/online';
import { Dialog } from '../../ui/Dialog';
import { NeedsConnection } from '../../ui/NeedsConnection';
import { useFeed } from '../../lib/feed';
import { OfflineNote } from '../../ui/OfflineNote';
import { checkAddress } from './address-check';
import { useReplica } from '../../sync/live';
import { checkDestination, withdrawValidator } from './withdraw-checks';
import { networkLabel } from '../../ui/NetworkChoice';
import { useFeeQuote } from './use-fee-quote';
import { loadProfile, useProfile } from '../../state/use-profile';
import { WithdrawForm } from './WithdrawForm';
import { SECOND_FACTOR_REQUIRED, useSecurityOverview } from '../../lib/security';
import { SecondFactorField, secondFactorError, secondFactorProblem } from '../../ui/SecondFactorField';
import { WithdrawProgress } from './WithdrawProgress';
import { PATHS } from '../../lib/paths';
import '../../ui/wallet.css';

/** The fallback read of the list while the feed announces the verdict (a missed message, a closed feed). */
export const REVIEW_POLL_MS = 30_000;

export function WithdrawPage() {
  const { t } = useTranslation();
  const online = useOnlineStatus();
  const profile = useProfile();
  // Read when the member submits: a withdrawal above the balance never reaches the sheet.
  const available = useRef<string | undefined>(undefined);
  available.current = profile.data?.available;
  // The machine with the engine's address rules (checksums), the balance and the address book's refusals.
  const [logic] = useState(() =>
    withdrawalMachine.provide({ actors: { validate: withdrawValidator(() => available.current) } }),
  );
  const [snapshot, send, actor] = useMachine(logic, {
    input: { online, ...withMinimum(siteLimits()?.minWithdraw) },
  });
  const limits = useSiteLimits();
  const { form, fieldErrors, minimum } = snapshot.context;
  const quote = useFeeQuote(form.network, form.amount);
  // The engine's minimum as it becomes known (the fee quote for the network, else getsite's limits).
  const knownMinimum = quote?.minimum ?? limits?.minWithdraw;
  useEffect(() => {
    if (knownMinimum !== undefined && knownMinimum !== minimum)
      send({ type: 'MINIMUM', minimum: knownMinimum });
  }, [knownMinimum, minimum, send]);
  const [record, setRecord] = useState<WithdrawalRecord | null>(null);
  // Two-factor authentication on: the confirmation asks for a code or a passkey (a member without it sees the
  // confirmation as it always was). The device's copy of the overview, refreshed when the server asks (6101).
  const security = useSecurityOverview();
  const twoFactorOn = security.data?.twoFactor.on ?? false;
  const reloadSecurity = security.reload;
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const saved = useReplica<SavedAddressView>('savedAddresses').records.filter(
    (e) => e.network === form.network,
  );
  const whitelist =
    useReplica<{ id: string; whitelist: boolean }>('addressBookSettings').records[0]?.whitelist === true;
  // What the destination is to the platform, asked once the address is complete (another member's, ours).
  const [destination, setDestination] = useState<DestinationCheck | null>(null);
  useEffect(() => {
    setDestination(null);
    if (!online || checkAddress(form.address, form.network) !== null) return;
    let live = true;
    const timer = setTimeout(() => {
      void checkDestination(form.network, form.address).then((check) => live && setDestination(check));
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [form.address, form.network, online]);

  useEffect(() => {
    send({ type: online ? 'ONLINE' : 'OFFLINE' });
  }, [online, send]);

  useEffect(() => {
    const subs = [
      actor.on('submitted', (e) => {
        setRecord(e.record);
        // 911 is the success of a submission: a confirmation, never an error.
        toastStore.show(t('errors.e911'), 'success');
      }),
      actor.on('waiting', () => toastStore.show(t('withdraw.queued'), 'info')),
      actor.on('failed', (e) => {
        setCode('');
        if (e.error.code === SECOND_FACTOR_REQUIRED) reloadSecurity();
      }),
      actor.on('reviewed', (e) => {
        toastStore.show(
          t(e.status === 'success' ? 'withdraw.succeeded' : 'withdraw.rejected'),
          e.status === 'success' ? 'success' : 'error',
        );
        void loadProfile().catch(() => undefined);
      }),
    ];
    return () => subs.forEach((s) => s.unsubscribe());
  }, [actor, t, reloadSecurity]);

  const reviewing = snapshot.matches('awaitingReview');
  const id = record?.id;
  const checkReview = useCallback(async () => {
    if (!id) return;
    const page = await api.call('/api/withdraw/list', { page: 1, limit: 20 }, { silent: true });
    const found = page.list.find((r) => r.id === id);
    if (!found) return;
    setRecord(found);
    if (found.status === 'success' || found.status === 'rejected')
      send({ type: 'REVIEW_RESULT', status: found.status });
  }, [id, send]);

  // The verdict arrives through the feed; the record is read once more for its final figures.
  useFeed((message) => {
    if (!reviewing) return;
    const verdict = reviewResultOf(message, id);
    if (!verdict) return;
    send(verdict);
    void checkReview().catch(() => undefined);
  });

  useEffect(() => {
    if (!reviewing) return;
    const timer = setInterval(() => void checkReview().catch(() => undefined), REVIEW_POLL_MS);
    return () => clearInterval(timer);
  }, [reviewing, checkReview]);

  const stage = reviewing
    ? 'review'
    : snapshot.matches('success')
      ? 'success'
      : snapshot.matches('rejected')
        ? 'rejected'
        : null;
  if (stage) {
    return (
      <div className="page withdraw">
        <OfflineNote />
        <WithdrawProgress
          record={record}
          stage={stage}
          onNew={() => {
            setRecord(null);
            send({ type: 'EDIT', patch: {} });
          }}
        />
        <Link className="button block" to={PATHS.orderWithdrawRecord}>
          {t('withdraw.records')}
        </Link>
      </div>
    );
  }

  const busy = snapshot.matches('submitting') || snapshot.matches('validating');
  function confirm() {
    if (!twoFactorOn) return send({ type: 'CONFIRM' });
    const problem = secondFactorProblem(code);
    if (problem) return setCodeError(secondFactorError(problem, t));
    send({ type: 'CONFIRM', factor: { code: code.replace(/\s+/g, '') } });
  }
  return (
    <div className="page withdraw">
      <OfflineNote />
      <section className="card" aria-labelledby="withdraw-title">
        <div className="section-head">
          <h2 id="withdraw-title" className="section-title">
            {t('withdraw.title')}
          </h2>
          <Link to={PATHS.orderWithdrawRecord} className="text-link">
            {t('withdraw.records')}
          </Link>
        </div>
        {snapshot.matches('waiting') && (
          <div className="form-error" role="status">
            <p>{t('withdraw.queued')}</p>
          </div>
        )}
        <NeedsConnection>
          <WithdrawForm
            form={form}
            errors={fieldErrors}
            minimum={knownMinimum ?? minimum}
            available={profile.data?.available}
            saved={saved}
            whitelist={whitelist}
            destinationKind={destination?.kind ?? null}
            quote={quote}
            busy={busy || snapshot.matches('waiting')}
            failure={
              snapshot.context.error && (snapshot.matches('failed') || snapshot.matches('editing'))
                ? errorText(describeError(snapshot.context.error.code, snapshot.context.error.msg), (k, p) =>
                    t(k, { ...p }),
                  )
                : null
            }
            onEdit={(patch) => send({ type: 'EDIT', patch })}
            onSubmit={() => {
              // After a refused submission (wrong key...), a new submit starts from the corrected form.
              if (snapshot.matches('failed')) send({ type: 'EDIT', patch: {} });
              send({ type: 'SUBMIT' });
            }}
          />
        </NeedsConnection>
      </section>

      {(snapshot.matches('confirming') || snapshot.matches('submitting')) && (
        <Dialog
          title={t('withdraw.confirmTitle')}
          onClose={() => send({ type: 'CANCEL' })}
          actions={
            <>
              <button
                type="button"
                className="button"
                onClick={() => send({ type: 'CANCEL' })}
                disabled={busy}
              >
                {t('common.cancel')}
              </button>
              <button type="button" className="button primary" onClick={confirm} disabled={busy}>
                {busy ? t('withdraw.sending') : t('common.confirm')}
              </button>
            </>
          }
        >
          <dl className="detail-list">
            <dt>{t('wallet.network')}</dt>
            <dd>USDT {networkLabel(form.network)}</dd>
            <dt>{t('withdraw.address')}</dt>
            <dd dir="ltr" translate="no">
              {form.address.trim()}
            </dd>
            <dt>{t('withdraw.amount')}</dt>
            <dd>
              <Amount value={form.amount} unit="USDT" kind="exact" />
            </dd>
            <dt>{t('withdraw.fee')}</dt>
            <dd>
              <Amount value={quote?.fee} unit="USDT" kind="exact" />
            </dd>
            <dt>{t('withdraw.received')}</dt>
            <dd>
              <Amount value={quote?.received} unit="USDT" kind="exact" />
            </dd>
          </dl>
          {twoFactorOn && (
            <SecondFactorField
              action="withdraw"
              code={code}
              onCode={(value) => {
                setCode(value);
                setCodeError(undefined);
              }}
              passkeys={(security.data?.passkeys ?? 0) > 0}
              onPasskey={(passkey) => send({ type: 'CONFIRM', factor: { passkey } })}
              error={codeError}
              disabled={busy}
            />
          )}
        </Dialog>
      )}
    </div>
  );
}

/** The site's minimum (engine config, via /api/site/getsite) as the machine's input, when known. */
function withMinimum(minimum: string | undefined): { minimum?: string } {
  return minimum === undefined ? {} : { minimum };
}
