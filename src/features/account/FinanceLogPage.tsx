/**
 * /user/finance/log: the profit log (the records of /api/sprofitlog/getlist, read from the device replica),
 * filterable by kind, newest first, paged on the device.
 */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProfitView } from '../../../engine/index';
import { formatTime } from '../../lib/format';
import { Amount } from '../../ui/Amount';
import { useReplica } from '../../sync/live';
import { ReplicaList } from '../../ui/ReplicaList';
import './account.css';

const KINDS = ['all', 'finance', 'mining', 'invite'] as const;
type Kind = (typeof KINDS)[number];

export function FinanceLogPage() {
  const { t } = useTranslation();
  const [kind, setKind] = useState<Kind>('all');
  const all = useReplica<ProfitView>('profitLog');
  const data = useMemo(
    () => (kind === 'all' ? all : { ...all, records: all.records.filter((p) => p.type === kind) }),
    [all, kind],
  );
  return (
    <div className="page account">
      <div className="choice-row" role="group" aria-label={t('financeLog.filter')}>
        {KINDS.map((k) => (
          <button
            key={k}
            type="button"
            className="choice chip"
            aria-pressed={kind === k}
            onClick={() => setKind(k)}
          >
            {t(`financeLog.kinds.${k}`)}
          </button>
        ))}
      </div>
      <section className="card" aria-labelledby="log-title">
        <h2 id="log-title" className="section-title">
          {t('financeLog.title')}
        </h2>
        <ReplicaList<ProfitView>
          key={kind}
          data={data}
          pageSize={20}
          label={t('financeLog.title')}
          emptyText={t('financeLog.empty')}
          itemKey={(p) => p.id}
          renderItem={(p) => (
            <div className="record-head">
              <span>
                <strong>{t(`financeLog.kinds.${p.type}`, { defaultValue: p.type })}</strong>
                {p.note && <span className="muted"> · {p.note}</span>}
                <br />
                <span className="muted" dir="ltr">
                  {formatTime(p.time)}
                </span>
              </span>
              <span className="record-amount" dir="ltr">
                <Amount value={p.amount} decimals={6} unit="USDT" prefix="+" />
              </span>
            </div>
          )}
        />
      </section>
    </div>
  );
}
