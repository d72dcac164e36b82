/**
 * A sent withdrawal's journey (SPEC.md §4): submitted -> awaiting review (911) -> success or rejected, as
 * ordered steps with the current one marked for screen readers (aria-current="step").
 */
import { useTranslation } from 'react-i18next';
import type { WithdrawalRecord } from '../../../engine/index';
import { formatTime } from '../../lib/format';
import { Amount } from '../../ui/Amount';
import { StatusBadge } from '../../ui/StatusBadge';
import { networkLabel } from '../../ui/NetworkChoice';

export type Stage = 'review' | 'success' | 'rejected';

export function WithdrawProgress(props: {
  record: WithdrawalRecord | null;
  stage: Stage;
  onNew: () => void;
}) {
  const { record, stage, onNew } = props;
  const { t } = useTranslation();
  const steps = [
    { key: 'submitted', label: t('withdraw.stepSubmitted'), done: true },
    { key: 'review', label: t('withdraw.stepReview'), done: stage !== 'review' },
    {
      key: 'result',
      label: stage === 'rejected' ? t('withdraw.stepRejected') : t('withdraw.stepSuccess'),
      done: stage !== 'review',
    },
  ];
  const current = stage === 'review' ? 'review' : 'result';

  return (
    <section className="card stack" aria-labelledby="withdraw-progress" aria-live="polite">
      <h2 id="withdraw-progress" className="section-title">
        {stage === 'review'
          ? t('withdraw.awaitingReview')
          : stage === 'success'
            ? t('withdraw.succeeded')
            : t('withdraw.rejected')}
      </h2>
      <ol className="steps">
        {steps.map((s) => (
          <li
            key={s.key}
            className={`step${s.done ? ' step-done' : ''}${stage === 'rejected' && s.key === 'result' ? ' step-bad' : ''}`}
            aria-current={s.key === current ? 'step' : undefined}
          >
            {s.label}
          </li>
        ))}
      </ol>
      {record && (
        <dl className="detail-list">
          <dt>{t('withdraw.amount')}</dt>
          <dd>
            <Amount value={record.amount} unit="USDT" kind="exact" />
          </dd>
          <dt>{t('withdraw.fee')}</dt>
          <dd>
            <Amount value={record.fee} unit="USDT" kind="exact" />
          </dd>
          <dt>{t('withdraw.received')}</dt>
          <dd>
            <Amount value={record.received} unit="USDT" kind="exact" />
          </dd>
          <dt>{t('wallet.network')}</dt>
          <dd>{networkLabel(record.network)}</dd>
          <dt>{t('withdraw.address')}</dt>
          <dd dir="ltr" translate="no">
            {record.address}
          </dd>
          <dt>{t('records.status')}</dt>
          <dd>
            <StatusBadge status={record.status} />
          </dd>
          {stage === 'review' && (
            <>
              <dt>{t('withdraw.reviewDue')}</dt>
              <dd>{formatTime(record.reviewAt)}</dd>
            </>
          )}
          {record.reason && (
            <>
              <dt>{t('withdraw.reason')}</dt>
              <dd>{record.reason}</dd>
            </>
          )}
        </dl>
      )}
      {stage === 'success' && <p className="hint">{t('withdraw.arrival')}</p>}
      {stage !== 'review' && (
        <button type="button" className="button primary block" onClick={onNew}>
          {t('withdraw.another')}
        </button>
      )}
    </section>
  );
}
