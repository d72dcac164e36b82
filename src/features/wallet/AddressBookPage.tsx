/**
 * /user/addressbook, "Address book" (issue 27 item 3; SPEC.md §10): the member's saved withdrawal addresses
 * per network with their labels, each new one on hold for 24 hours (a countdown on the server's clock, which
 * the demo's fast-forward moves), the whitelist switch, adding and removing. Read from the device replica
 * (shown offline with its time); changes need a connection, and the authenticator code when two-factor
 * authentication is on (asked for when the server answers 6101).
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SavedAddressView, WireNetwork } from '../../../engine/index';
import { api } from '../../api';
import { toastStore } from '../../state/toast-store';
import { onDemoChange } from '../../lib/demo-events';
import { toFailure, type Failure } from '../../machines/failure';
import { useOnlineStatus } from '../../pwa/online';
import { appSync } from '../../sync/app';
import { useReplica } from '../../sync/live';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { FailureAlert } from '../../ui/FailureAlert';
import { Field } from '../../ui/Field';
import { StaleNote } from '../../ui/Freshness';
import { NetworkChoice, networkLabel } from '../../ui/NetworkChoice';
import { OfflineNote } from '../../ui/OfflineNote';
import { ReplicaState } from '../../ui/ReplicaList';
import { checkAddress } from './address-check';
import { countdownParts, useServerClock } from './use-server-clock';
import '../../ui/wallet.css';

/** The server answers this when the change needs the authenticator code (API.md "Member security"). */
const SECOND_FACTOR = 6101;
export const LABEL_MAX = 40;

type Change =
  | { kind: 'add'; network: WireNetwork; address: string; label: string }
  | { kind: 'remove'; id: string }
  | { kind: 'whitelist'; on: boolean };

async function apply(change: Change, code: string | undefined) {
  const factor = code ? { code } : {};
  if (change.kind === 'add') {
    const { kind: _, ...body } = change;
    return api.call('/api/addressbook/add', { ...body, ...factor }, { silent: true });
  }
  if (change.kind === 'remove')
    return api.call('/api/addressbook/remove', { id: change.id, ...factor }, { silent: true });
  return api.call('/api/addressbook/whitelist', { on: change.on, ...factor }, { silent: true });
}

/** Ticks once a second while anything is on hold, on the server's clock (the demo's, fast-forwarded). */
function useNow(active: boolean): number {
  const { now, sync } = useServerClock();
  const [at, setAt] = useState(() => now());
  useEffect(() => {
    const resync = () => void sync().then(() => setAt(now()));
    resync();
    return onDemoChange(resync);
  }, [now, sync]);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setAt(now()), 1000);
    return () => clearInterval(timer);
  }, [active, now]);
  return at;
}

export function AddressBookPage() {
  const { t } = useTranslation();
  const online = useOnlineStatus();
  const saved = useReplica<SavedAddressView>('savedAddresses');
  const settings = useReplica<{ id: string; whitelist: boolean }>('addressBookSettings');
  const whitelist = settings.records[0]?.whitelist === true;
  const list = [...saved.records].sort((a, b) => b.createdAt - a.createdAt || Number(b.id) - Number(a.id));
  const now = useNow(list.length > 0);

  const [adding, setAdding] = useState(false);
  const [form, setForm] = useState({ network: 'TRC20' as WireNetwork, address: '', label: '' });
  const [errors, setErrors] = useState<{ address?: string; label?: string }>({});
  const [removing, setRemoving] = useState<SavedAddressView | null>(null);
  const [pending, setPending] = useState<Change | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);

  const run = useCallback(
    async (change: Change, withCode?: string) => {
      setBusy(true);
      setFailure(null);
      try {
        await apply(change, withCode);
        setPending(null);
        setCode('');
        setRemoving(null);
        if (change.kind === 'add') {
          setAdding(false);
          setForm((f) => ({ ...f, address: '', label: '' }));
        }
        toastStore.show(
          t(
            change.kind === 'add'
              ? 'account.addressBook.added'
              : change.kind === 'remove'
                ? 'account.addressBook.removed'
                : change.on
                  ? 'account.addressBook.whitelistOnDone'
                  : 'account.addressBook.whitelistOffDone',
          ),
          'success',
        );
        appSync().requestPull();
      } catch (error) {
        const f = toFailure(error);
        if (f.code === SECOND_FACTOR) {
          setPending(change);
        } else {
          setFailure(f);
        }
      } finally {
        setBusy(false);
      }
    },
    [t],
  );

  function submitAdd(e: FormEvent) {
    e.preventDefault();
    const found: typeof errors = {};
    const label = form.label.trim();
    if (!label) found.label = t('account.addressBook.labelRequired');
    else if ([...label].length > LABEL_MAX)
      found.label = t('account.addressBook.labelTooLong', { max: LABEL_MAX });
    const reason = checkAddress(form.address, form.network);
    if (reason)
      found.address = t(`withdraw.errors.${reason}`, { network: networkLabel(form.network), min: '' });
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    void run({ kind: 'add', network: form.network, address: form.address.trim(), label });
  }

  return (
    <div className="page account address-book">
      <OfflineNote />
      <StaleNote at={saved.pulledAt} />
      <section className="card" aria-labelledby="whitelist-title">
        <h2 id="whitelist-title" className="section-title">
          {t('account.addressBook.whitelist')}
        </h2>
        <label className="switch-row">
          <input
            type="checkbox"
            role="switch"
            checked={whitelist}
            disabled={!online || busy}
            onChange={(e) => void run({ kind: 'whitelist', on: e.target.checked })}
          />
          <span>{t(whitelist ? 'account.addressBook.whitelistOn' : 'account.addressBook.whitelistOff')}</span>
        </label>
        <p className="hint">{t('account.addressBook.whitelistHint')}</p>
      </section>

      <section className="card" aria-labelledby="address-book-title">
        <h2 id="address-book-title" className="section-title">
          {t('account.addressBook.title')}
        </h2>
        <p className="hint">{t('account.addressBook.holdHint')}</p>
        {list.length > 0 && (
          <ul className="plain-list saved-addresses" aria-labelledby="address-book-title">
            {list.map((entry) => {
              const remaining = entry.usableAt * 1000 - now;
              const { days, time } = countdownParts(remaining);
              return (
                <li key={entry.id} className="saved-address">
                  <div>
                    <strong>{entry.label}</strong>{' '}
                    <span className="muted">USDT {networkLabel(entry.network)}</span>
                  </div>
                  <div className="address-text" dir="ltr" translate="no">
                    {entry.address}
                  </div>
                  {remaining > 0 ? (
                    <p className="countdown" role="timer" aria-live="off">
                      {t('account.addressBook.onHold', { days, time })}
                    </p>
                  ) : (
                    <p className="muted">{t('account.addressBook.usable')}</p>
                  )}
                  <button
                    type="button"
                    className="button small"
                    disabled={!online || busy}
                    aria-label={t('account.addressBook.removeNamed', { label: entry.label })}
                    onClick={() => setRemoving(entry)}
                  >
                    {t('account.addressBook.remove')}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
        <ReplicaState data={saved} emptyText={t('account.addressBook.empty')} />
      </section>

      <FailureAlert failure={failure} />

      {adding ? (
        <section className="card" aria-labelledby="address-add-title">
          <h2 id="address-add-title" className="section-title">
            {t('account.addressBook.add')}
          </h2>
          <form className="form" onSubmit={submitAdd} noValidate aria-busy={busy}>
            <NetworkChoice value={form.network} onChange={(network) => setForm((f) => ({ ...f, network }))} />
            <Field
              label={t('account.addressBook.label')}
              name="label"
              autoComplete="off"
              maxLength={LABEL_MAX * 2}
              value={form.label}
              error={errors.label}
              onChange={(e) => setForm((f) => ({ ...f, label: e.target.value }))}
            />
            <Field
              label={t('withdraw.address')}
              name="address"
              autoComplete="off"
              spellCheck={false}
              dir="ltr"
              value={form.address}
              error={errors.address}
              onChange={(e) => setForm((f) => ({ ...f, address: e.target.value }))}
            />
            <button type="submit" className="button primary block" disabled={!online || busy}>
              {t('account.addressBook.save')}
            </button>
            <button type="button" className="button block" onClick={() => setAdding(false)}>
              {t('common.cancel')}
            </button>
          </form>
        </section>
      ) : (
        <button
          type="button"
          className="button primary block"
          disabled={!online}
          onClick={() => {
            setFailure(null);
            setAdding(true);
          }}
        >
          {t('account.addressBook.add')}
        </button>
      )}

      {removing && !pending && (
        <ConfirmDialog
          title={t('account.addressBook.removeTitle')}
          confirmLabel={t('account.addressBook.remove')}
          busy={busy}
          onClose={() => setRemoving(null)}
          onConfirm={() => void run({ kind: 'remove', id: removing.id })}
        >
          <p>
            <strong>{removing.label}</strong>
          </p>
          <p dir="ltr" translate="no" className="address-text">
            {removing.address}
          </p>
        </ConfirmDialog>
      )}

      {pending && (
        <ConfirmDialog
          title={t('account.addressBook.codeTitle')}
          confirmLabel={t('common.confirm')}
          busy={busy}
          disabled={code.trim() === ''}
          onClose={() => setPending(null)}
          onConfirm={() => void run(pending, code.trim())}
        >
          <Field
            label={t('account.addressBook.code')}
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            hint={t('account.addressBook.codeHint')}
            onChange={(e) => setCode(e.target.value)}
          />
          <FailureAlert failure={failure} />
        </ConfirmDialog>
      )}
    </div>
  );
}
