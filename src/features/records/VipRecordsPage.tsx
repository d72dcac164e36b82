/** /order/vipRecord: VIP trials, purchases, upgrades, expiries and refunds, newest first. */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import type { VipRecord } from '../../../engine/index';
import { formatAmount, formatTime } from '../../lib/format';
import { PagedList } from '../../ui/PagedList';
import { levelName } from '../wallet/vip-levels';
import { PAGE_SIZE } from './list-page';
import '../wallet/wallet.css';

export function VipRecordsPage() {
  const { t } = useTranslation();
  const load = useCallback(
    (page: number) => api.call('/api/Viplist/records', { page, limit: PAGE_SIZE }, { silent: true }),
    [],
  );
  return (
    <div className="page records">
      <PagedList
        label={t('routes.orderVipRecord')}
        load={load}
        itemKey={(r) => r.id}
        emptyText={t('records.emptyVip')}
        renderItem={(r) => <VipItem record={r} />}
      />
    </div>
  );
}

function VipItem({ record: r }: { record: VipRecord }) {
  const { t, i18n } = useTranslation();
  return (
    <>
      <div className="record-head">
        <span className="record-amount">{t(`records.vipType.${r.type}`)}</span>
        <span className="record-amount" dir="ltr">
          {formatAmount(r.amount, { locale: i18n.language })} USDT
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
