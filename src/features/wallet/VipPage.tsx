/**
 * /user/vip, driven by the VIP machine (src/machines/vip.ts): the six levels with their deposits and receive
 * limits, the current level, buying with the security key, the VIP1 trial countdown on the server's clock,
 * and the refund of a VIP2+ deposit.
 */
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useMachine } from '@xstate/react';
import { api } from '../../api';
import { describeError, errorText } from '../../api/errors';
import type { VipLevelInfo } from '../../../engine/index';
import { toastStore } from '../../state/toast-store';
import { useFigure } from '../../ui/Amount';
import { vipMachine, LEVEL_NOT_HIGHER } from '../../machines/vip';
import { vipEffects } from '../../machines/vip-effects';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { KeyDialog } from '../../ui/KeyDialog';
import { CachedNote } from '../../ui/Freshness';
import { NeedsConnection } from '../../ui/NeedsConnection';
import { QueryState } from '../../ui/QueryState';
import { useCached } from '../../sync/cache';
import { loadProfile } from '../../state/use-profile';
import { useServerClock } from './use-server-clock';
import { VipLevelCard } from './VipLevelCard';
import { VipStatus } from './VipStatus';
import { PATHS } from '../../lib/paths';
import '../../ui/wallet.css';

/** How often a running trial is checked against the server (fast-forward, expiry). */
export const TRIAL_RESYNC_MS = 15_000;

export function VipPage() {
  const { t } = useTranslation();
  const clock = useServerClock();
  const [logic] = useState(() => vipMachine.provide({ actors: vipEffects(clock.now) }));
  const [snapshot, send, actor] = useMachine(logic);
  const [buying, setBuying] = useState<VipLevelInfo | null>(null);
  const [refunding, setRefunding] = useState(false);
  const { sync, now } = clock;
  const load = useCallback(async () => {
    await sync();
    return api.call('/api/Viplist/getlist', undefined, { silent: true });
  }, [sync]);
  const query = useCached('vip:levels', load, { member: true });
  const data = query.data;
  const { reload } = query;

  useEffect(() => {
    if (data) send({ type: 'SYNC', profile: { vip: data.current, vipExpiresAt: data.expiresAt }, at: now() });
  }, [data, send, now]);

  // The trial is counted on the server's clock, which the demo tools can move: read it again now and then.
  const inTrial = snapshot.matches('trial');
  useEffect(() => {
    if (!inTrial) return;
    const timer = setInterval(reload, TRIAL_RESYNC_MS);
    return () => clearInterval(timer);
  }, [inTrial, reload]);

  useEffect(() => {
    const refresh = () => {
      reload();
      void loadProfile().catch(() => undefined);
    };
    const subs = [
      actor.on('bought', (e) => {
        setBuying(null);
        toastStore.show(t('vip.bought', { level: e.level }), 'success');
        refresh();
      }),
      actor.on('failed', (e) => {
        setBuying(null);
        setRefunding(false);
        // Server refusals were toasted by the client; a refusal the machine made itself was not.
        if (e.error.code === LEVEL_NOT_HIGHER && e.error.msg === '')
          toastStore.show(
            errorText(describeError(LEVEL_NOT_HIGHER), (k, p) => t(k, { ...p })),
            'error',
          );
      }),
      actor.on('refunded', () => {
        setRefunding(false);
        toastStore.show(t('vip.refunded'), 'success');
        refresh();
      }),
      actor.on('expired', () => refresh()),
    ];
    return () => subs.forEach((s) => s.unsubscribe());
  }, [actor, reload, t]);

  const { level, remaining } = snapshot.context;
  const busy = snapshot.matches('purchasing') || snapshot.matches('refundRequested');
  const state = busy
    ? 'busy'
    : snapshot.matches('trial')
      ? 'trial'
      : snapshot.matches('active')
        ? 'active'
        : snapshot.matches('expired')
          ? 'expired'
          : 'vip0';
  const figure = useFigure();
  const money = (v: string) => figure(v);

  if (!data) {
    return (
      <div className="page vip">
        <CachedNote at={query.at} stale={query.stale} />
        <QueryState status={query.status} error={query.error} onRetry={reload} />
      </div>
    );
  }

  return (
    <div className="page vip">
      <CachedNote at={query.at} stale={query.stale} />
      <VipStatus
        level={level}
        state={state}
        remaining={remaining}
        deposit={data.deposit}
        notice={data.notice}
        onRefund={() => setRefunding(true)}
      />
      <section className="card" aria-labelledby="vip-levels">
        <div className="section-head">
          <h2 id="vip-levels" className="section-title">
            {t('vip.levels')}
          </h2>
          <Link to={PATHS.orderVipRecord} className="text-link">
            {t('vip.records')}
          </Link>
        </div>
        <p className="hint">{t('vip.intro')}</p>
        {/* A purchase needs the security key, which never waits on the device: online only. */}
        <NeedsConnection>
          <ul className="vip-list">
            {data.list.map((l) => (
              <VipLevelCard key={l.level} level={l} current={level} busy={busy} onBuy={setBuying} />
            ))}
          </ul>
        </NeedsConnection>
      </section>

      {buying && (
        <KeyDialog
          title={t('vip.buyTitle', { level: buying.level })}
          confirmLabel={t('vip.pay', { amount: money(buying.deposit) })}
          busy={busy}
          onClose={() => !busy && setBuying(null)}
          onConfirm={(key) => send({ type: 'BUY', level: buying.level, key })}
        >
          <p>
            {buying.trial
              ? t('vip.buyTrial', { amount: money(buying.deposit), days: buying.validDays ?? 60 })
              : level >= 2
                ? t('vip.buyUpgrade', { amount: money(buying.deposit) })
                : t('vip.buyDeposit', { amount: money(buying.deposit) })}
          </p>
        </KeyDialog>
      )}

      {refunding && (
        <ConfirmDialog
          title={t('vip.refundTitle')}
          confirmLabel={t('vip.refundConfirm')}
          busy={busy}
          onClose={() => setRefunding(false)}
          onConfirm={() => send({ type: 'REFUND' })}
        >
          <p>{t('vip.refundBody', { level, amount: money(data.deposit) })}</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
