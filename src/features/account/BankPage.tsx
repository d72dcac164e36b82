/** /user/bank: the member's bank cards (masked, read from the device replica), with the way to add one. */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatTime } from '../../lib/format';
import { useReplica } from '../../sync/live';
import { StaleNote } from '../../ui/Freshness';
import { ReplicaState } from '../../ui/ReplicaList';
import { appWrites } from '../../sync/app-writes';
import { usePendingMutations } from '../../sync/pending';
import { PendingRows } from '../../ui/PendingRows';
import type { BankCard } from './bank-types';
import { PATHS } from '../../lib/paths';
import './account.css';

export function BankPage() {
  const { t } = useTranslation();
  const cards = useReplica<BankCard>('bankCards');
  const list = cards.records;
  // Cards added on this device that the server has not settled yet (the number itself is never stored).
  const pending = usePendingMutations('/api/bank/add');
  return (
    <div className="page account">
      <StaleNote at={cards.pulledAt} />
      <section className="card" aria-labelledby="bank-title">
        <h2 id="bank-title" className="section-title">
          {t('bank.title')}
        </h2>
        <PendingRows
          rows={pending}
          label={t('outbox.title')}
          describe={(row) => `${String(row.args.bankName ?? '')} · ${String(row.args.holder ?? '')}`}
          onDismiss={(id) => void appWrites().acknowledge(id)}
        />
        {list.length > 0 && (
          <ul className="plain-list" aria-labelledby="bank-title">
            {list.map((card) => (
              <li key={card.id}>
                <div className="bank-card">
                  <strong>{card.bankName}</strong>
                  <span dir="ltr">{card.cardNumber}</span>
                  <span className="muted">
                    {card.holder} · {formatTime(card.time, 'YYYY-MM-DD')}
                  </span>
                </div>
              </li>
            ))}
          </ul>
        )}
        <ReplicaState data={cards} emptyText={t('bank.empty')} alsoShown={pending.length} />
      </section>
      <Link className="button primary block" to={PATHS.userBankAdd}>
        {t('bank.add')}
      </Link>
    </div>
  );
}
