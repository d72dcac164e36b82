/** /order/transferRecord: internal transfers in and out, newest first, filtered by date and direction. */
import { useTranslation } from 'react-i18next';
import type { TransferRecord } from '../../../engine/index';
import { formatTime } from '../../lib/format';
import { Amount } from '../../ui/Amount';
import { ReplicaList } from '../../ui/ReplicaList';
import { PendingRows } from '../../ui/PendingRows';
import { appWrites } from '../../sync/app-writes';
import { warmReplicaTables } from '../../sync/live';
import { usePendingMutations } from '../../sync/pending';
import { StatusBadge } from '../../ui/StatusBadge';
import { RecordFilters, useFilteredReplica } from './RecordFilters';
import '../../ui/wallet.css';

const TRANSFERS = 'transfers';

/**
 * Start-up reads the member's transfers from the device before the first render (src/app/routes.tsx): a
 * returning member's first frame has the rows, so the rows the shell put back from the last visit stay.
 */
export function warmTransferRecords(): Promise<void> {
  return warmReplicaTables([[TRANSFERS]]);
}

export function TransferRecordsPage() {
  const { t } = useTranslation();
  const { data, bar } = useFilteredReplica<TransferRecord>(TRANSFERS, (r) => r.direction);
  // Transfers made on this device that the server has not settled yet (waiting, or refused), listed first.
  const pending = usePendingMutations('/api/transfer/submit');
  return (
    <div className="page records">
      <RecordFilters
        {...bar}
        statusLabel={t('statement.direction')}
        statuses={[
          { value: 'in', label: t('statement.in') },
          { value: 'out', label: t('statement.out') },
        ]}
      />
      <PendingRows
        rows={pending}
        label={t('outbox.title')}
        sign="-"
        describe={(row) => t('records.transferTo', { account: String(row.args.account ?? '') })}
        onDismiss={(id) => void appWrites().acknowledge(id)}
      />
      {/* The region the next visit's shell fills with these rows before any JavaScript (src/lib/snapshot.ts). */}
      <div className="snapshot-region" data-snapshot="records">
        <ReplicaList
          label={t('routes.orderTransferRecord')}
          data={data}
          itemKey={(r) => `${r.id}-${r.direction}`}
          emptyText={t('records.emptyTransfers')}
          alsoShown={pending.length}
          renderItem={(r, index) => <TransferItem record={r} first={index === 0} />}
        />
      </div>
    </div>
  );
}

/** `first`: the list's first row, whose amount is the screen's first data (Element Timing, issue 25). */
function TransferItem({ record: r, first }: { record: TransferRecord; first: boolean }) {
  const { t } = useTranslation();
  const sign = r.direction === 'in' ? '+' : '-';
  return (
    <>
      <div className="record-head">
        <span className={`record-amount ${r.direction}`} dir="ltr">
          <Amount
            value={r.amount}
            kind="exact"
            unit="USDT"
            prefix={sign}
            timing={first ? 'record-row' : undefined}
          />
        </span>
        <StatusBadge status={r.status} />
      </div>
      <div className="record-meta">
        {t(r.direction === 'in' ? 'records.transferFrom' : 'records.transferTo', { account: r.account })}
      </div>
      <div className="record-meta">{formatTime(r.createdAt)}</div>
    </>
  );
}
