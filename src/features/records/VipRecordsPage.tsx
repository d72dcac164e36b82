/** /order/vipRecord: VIP trials, purchases, upgrades, expiries and refunds, newest first. */
import { useTranslation } from 'react-i18next';
import type { VipRecord } from '../../../engine/index';
import { formatTime } from '../../lib/format';
import { Amount } from '../../ui/Amount';
import { useReplicaPage } from '../../sync/live';
import { PAGE_SIZE } from '../../ui/list-page';
import { ReplicaList } from '../../ui/ReplicaList';
import { levelName } from '../../lib/vip-levels';
import '../../ui/wallet.css';

export function VipRecordsPage() {
  const { t } = useTranslation();
  const data = useReplicaPage<VipRecord>('vipRecords', PAGE_SIZE);
  return (
    <div className="page records">
      <ReplicaList
        label={t('routes.orderVipRecord')}
        data={data}
        itemKey={(r) => r.id}
        emptyText={t('records.emptyVip')}
        renderItem={(r) => <VipItem record={r} />}
      />
    </div>
  );
}

function VipItem({ record: r }: { record: VipRecord }) {
  const { t } = useTranslation();
  return (
    <>
      <div className="record-head">
        <span className="record-amount">{t(`records.vipType.${r.type}`)}</span>
        <span className="record-amount" dir="ltr">
          <Amount value={r.amount} kind="exact" unit="USDT" />
        </span>
      </div>
      <div className="record-meta" dir="ltr">
        {levelName(r.from)} → {levelName(r.to)}
      </div>
      {r.message && <div className="record-meta">{r.message}</div>}
      <div className="record-meta">{formatTime(r.createdAt)}</div>
    </>
  );
}
