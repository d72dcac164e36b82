/**
 * /user/notifications, the notification centre (docs/SPEC.md §12): everything the service told the member,
 * newest first, from the device replica (`notices`): price alerts that went off, deposits credited,
 * withdrawals sent, liquidation warnings, funding, and the security notices, each with the anti-phishing code
 * it was sent with. New ones (since the member last looked, on any device of theirs) are marked and counted
 * on /user; opening the centre marks them seen, here at once and on the service through the outbox
 * (src/lib/notifications.ts). The member may turn on system notifications here (never asked on
 * load), and set and cancel price alerts.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { NoticeView } from '../../../engine/index';
import { formatTime } from '../../lib/format';
import { noticeText } from '../../lib/notice-text';
import {
  isUnread,
  markNoticesSeen,
  noticeGroup,
  useNotices,
  type NoticeGroup,
} from '../../lib/notifications';
import { StaleNote } from '../../ui/Freshness';
import { ReplicaList } from '../../ui/ReplicaList';
import { Segmented } from '../../ui/Segmented';
import { AlertsSection } from './AlertsSection';
import { SystemNotifications } from './SystemNotifications';
import './notifications.css';

type Filter = 'all' | NoticeGroup;
const FILTERS: readonly Filter[] = ['all', 'alerts', 'funds', 'trading', 'security'];

export function NotificationsPage() {
  const { t, i18n } = useTranslation();
  const { notices, seen, recorded, unread, member, loaded } = useNotices();
  const [filter, setFilter] = useState<Filter>('all');
  // What was new when the page opened (once the device has answered with the notices and the read state)
  // stays marked while it is open; the count on /user clears now, on this device and on the member's others.
  const [newSince, setNewSince] = useState<number | null>(null);
  useEffect(() => {
    if (loaded && newSince === null) setNewSince(seen);
  }, [loaded, newSince, seen]);
  useEffect(() => {
    if (newSince !== null && member && notices.records.length > 0)
      markNoticesSeen(member, notices.records, recorded);
  }, [newSince, member, notices.records, recorded]);
  const shown = {
    ...notices,
    records:
      filter === 'all' ? notices.records : notices.records.filter((n) => noticeGroup(n.kind) === filter),
  };

  return (
    <div className="page notifications">
      <StaleNote at={notices.pulledAt} />
      <SystemNotifications />
      <section className="card" aria-labelledby="notices-title">
        <div className="section-head">
          <h2 id="notices-title" className="section-title">
            {t('notifications.title')}
          </h2>
          <span className="record-meta" role="status">
            {t('notifications.unread', { count: unread })}
          </span>
        </div>
        <div className="notice-filters">
          <Segmented<Filter>
            label={t('notifications.filter')}
            value={filter}
            onChange={setFilter}
            options={FILTERS.map((f) => ({ value: f, label: t(`notifications.groups.${f}`) }))}
          />
        </div>
        <ReplicaList
          label={t('notifications.title')}
          data={shown}
          itemKey={(n) => n.id}
          emptyText={filter === 'all' ? t('notifications.empty') : t('notifications.emptyGroup')}
          renderItem={(n) => (
            <NoticeItem notice={n} fresh={isUnread(n, newSince ?? seen)} locale={i18n.language} />
          )}
        />
      </section>
      <AlertsSection />
    </div>
  );
}

function NoticeItem({ notice: n, fresh, locale }: { notice: NoticeView; fresh: boolean; locale: string }) {
  const { t } = useTranslation();
  const group = noticeGroup(n.kind);
  const title =
    group === 'security'
      ? t('notifications.kinds.security')
      : t(`notifications.kinds.${n.kind.replace('.', '_')}`);
  return (
    <article className={`notice notice-${group}${fresh ? ' notice-new' : ''}`}>
      <div className="record-head">
        <strong>{title}</strong>
        {fresh && <span className="badge badge-info">{t('notifications.new')}</span>}
      </div>
      <p className="notice-text">{noticeText(n, t, locale)}</p>
      <div className="record-meta">{formatTime(n.createdAt)}</div>
      <div className="record-meta">
        {n.antiPhishing === null ? (
          t('notifications.noCode')
        ) : (
          <>
            {t('notifications.code')} <bdi className="phrase">{n.antiPhishing}</bdi>
          </>
        )}
      </div>
    </article>
  );
}
