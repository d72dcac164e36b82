/** /user/bank: the member's bank cards (masked), with the way to add one. */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { api } from '../../api';
import { formatTime } from '../../lib/format';
import { appWrites } from '../../sync/app-writes';
import { usePendingMutations } from '../../sync/pending';
import { OfflineNote } from '../../ui/OfflineNote';
import { PendingRows } from '../../ui/PendingRows';
import { QueryState } from '../../ui/QueryState';
import { useQuery } from '../../ui/useQuery';
import type { BankCard } from './bank-types';
import './account.css';

export function BankPage() {
  const { t } = useTranslation();
  const cards = useQuery(() => api.call<{ list: BankCard[] }>('/api/bank/list', undefined, { silent: true }));
  const list = cards.status === 'ready' ? cards.data.list : [];
  // Cards added on this device that the server has not settled yet (the number itself is never stored).
  const pending = usePendingMutations('/api/bank/add');
  return (
    <div className="page account">
      <OfflineNote />
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
        <QueryState
          status={cards.status}
          error={cards.error}
          onRetry={cards.reload}
          isEmpty={list.length === 0}
          emptyText={t('bank.empty')}
        />
      </section>
      <Link className="button primary block" to="/user/bankAdd">
        {t('bank.add')}
      </Link>
    </div>
  );
}
