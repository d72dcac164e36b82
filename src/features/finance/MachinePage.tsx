/**
 * /finance/machine, the mining centre: pledge plans (interest for the whole period, the period, limits and
 * the total pledged) and the member's pledges. A pledge freezes cash for the period; principal and interest
 * come back together at its end (engine/mining).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MachineView, PledgeView } from '../../../engine/index';
import { api } from '../../api';
import { useSiteDemo } from '../../api/site-config';
import { toastStore } from '../../state/toast-store';
import { formatTime } from '../../lib/format';
import { Amount, useFigure } from '../../ui/Amount';
import { CachedNote } from '../../ui/Freshness';
import { ReplicaList } from '../../ui/ReplicaList';
import { NeedsConnection } from '../../ui/NeedsConnection';
import { QueryState } from '../../ui/QueryState';
import { StatusBadge } from '../../ui/StatusBadge';
import { useCached } from '../../sync/cache';
import { appSync } from '../../sync/app';
import { useReplica } from '../../sync/live';
import { PledgeDialog } from './PledgeDialog';
import '../../ui/market.css';
import './finance.css';

export function periodDays(seconds: number): number {
  return Math.round(seconds / 86_400);
}

function MachineCard({ machine, onPledge }: { machine: MachineView; onPledge: () => void }) {
  const { t } = useTranslation();
  const figure = useFigure();
  return (
    <li className="card product-card" aria-label={machine.name}>
      <h3 className="product-name">{machine.name}</h3>
      <p className="product-rate">
        <strong dir="ltr">{figure(machine.interestRate, { kind: 'percent' })}%</strong>{' '}
        <span className="muted">{t('mining.interest', { days: periodDays(machine.periodSeconds) })}</span>
      </p>
      <dl className="stat-grid">
        <div>
          <dt>{t('mining.period')}</dt>
          <dd>{t('finance.days', { count: periodDays(machine.periodSeconds) })}</dd>
        </div>
        <div>
          <dt>{t('finance.minimum')}</dt>
          <dd>
            <Amount value={machine.min} unit={machine.currency} wrapUnit />
          </dd>
        </div>
        <div>
          <dt>{t('finance.maximum')}</dt>
          <dd>
            <Amount value={machine.max} unit={machine.currency} wrapUnit />
          </dd>
        </div>
        <div>
          <dt>{t('mining.totalPledged')}</dt>
          <dd>
            <Amount value={machine.totalPledged} unit={machine.currency} wrapUnit />
          </dd>
        </div>
      </dl>
      <p className="terms">{t('mining.terms')}</p>
      <button type="button" className="button primary block" onClick={onPledge}>
        {t('mining.pledge', { name: machine.name })}
      </button>
    </li>
  );
}

function PledgeItem({ pledge }: { pledge: PledgeView }) {
  const { t } = useTranslation();
  const figure = useFigure();
  const money = (v: string) => figure(v, { unit: 'USDT' });
  return (
    <>
      <div className="record-head">
        <strong>{pledge.name}</strong>
        <StatusBadge status={pledge.status === 'active' ? 'in progress' : 'finished'} />
      </div>
      <p className="record-amount" dir="ltr">
        {money(pledge.amount)}
      </p>
      <p className="record-meta">
        {t('mining.pledgeInterest', { amount: money(pledge.interest) })} ·{' '}
        {t('mining.ends', { time: formatTime(pledge.endTime) })}
      </p>
    </>
  );
}

export function MachinePage() {
  const demo = useSiteDemo();
  const { t } = useTranslation();
  const machines = useCached(
    'mining:machines',
    () => api.call('/api/mining/list', undefined, { silent: true }),
    {
      member: true,
    },
  );
  const [pledging, setPledging] = useState<MachineView | null>(null);
  const pledges = useReplica<PledgeView>('pledges');
  const list = machines.data?.list ?? [];
  return (
    <div className="page mining">
      <CachedNote at={machines.at} stale={machines.stale} />
      <section className="card" aria-labelledby="mining-heading">
        <h2 id="mining-heading" className="section-title">
          {t('mining.title')}
        </h2>
        <p className="terms">{t('mining.intro')}</p>
        {demo && <p className="demo-note">{t('mining.simulated')}</p>}
      </section>
      {machines.status === 'ready' && list.length > 0 && (
        /* A pledge needs the security key, which never waits on the device: online only. */
        <NeedsConnection>
          <ul className="product-list" aria-label={t('mining.plans')}>
            {list.map((m) => (
              <MachineCard key={m.id} machine={m} onPledge={() => setPledging(m)} />
            ))}
          </ul>
        </NeedsConnection>
      )}
      <QueryState
        status={machines.status}
        error={machines.error}
        onRetry={machines.reload}
        isEmpty={list.length === 0}
        emptyText={t('mining.empty')}
      />
      <h2 className="section-title">{t('mining.mine')}</h2>
      <ReplicaList
        data={pledges}
        pageSize={20}
        label={t('mining.mine')}
        emptyText={t('mining.noPledges')}
        itemKey={(p: PledgeView) => p.id}
        renderItem={(p: PledgeView) => <PledgeItem pledge={p} />}
      />
      {pledging && (
        <PledgeDialog
          machine={pledging}
          onClose={() => setPledging(null)}
          onDone={() => {
            setPledging(null);
            toastStore.show(t('mining.pledged'), 'success');
            machines.reload();
            appSync().requestPull();
          }}
        />
      )}
    </div>
  );
}
