/**
 * /user/invite: the member's invitation code and link (the link opens /register with the code filled in),
 * the share of fees they earn, their direct invitees (names masked by the server) and what each earned.
 * All of it is the replica's (the profile, `invitees` and the `invite` entries of `profitLog`), summed on the
 * device with the engine's own inviteSummary, so it shows offline with its time.
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { InviteeRecord, InviteView } from '../../../engine/index';
import { formatTime } from '../../lib/format';
import { useFigure } from '../../ui/Amount';
import { CopyButton } from '../../ui/CopyButton';
import { StaleNote } from '../../ui/Freshness';
import { ReplicaState } from '../../ui/ReplicaList';
import { FormCard } from '../../ui/FormCard';
import { useReplicaTables, type Replicated } from '../../sync/live';
import { inviteFromReplica, type ReplicaProfile, type ReplicaProfit } from '../../sync/member-views';
import { vipLabel } from './labels';
import './account.css';
import '../../ui/auth.css';

/** Wire shape of /api/user/invite, from the contract. */
export type { InviteView };

const TABLES = ['members', 'invitees', 'profitLog'] as const;

export function inviteLink(code: string, origin: string = location.origin): string {
  return `${origin}/register?invite=${encodeURIComponent(code)}`;
}

export function InvitePage() {
  const { t } = useTranslation();
  const replica = useReplicaTables(TABLES);
  const profile = replica.tables.members?.[0] as ReplicaProfile | undefined;
  const invitees = replica.tables.invitees as InviteeRecord[] | undefined;
  const profits = replica.tables.profitLog as ReplicaProfit[] | undefined;
  const data = useMemo(
    () => (profile ? inviteFromReplica(profile, invitees ?? [], profits ?? []) : undefined),
    [profile, invitees, profits],
  );
  const figure = useFigure();
  const money = (v: string) => figure(v, { unit: 'USDT' });
  if (!data) {
    const state: Replicated<unknown> = { ...replica, records: [] };
    return (
      <div className="page account">
        <StaleNote at={replica.pulledAt} />
        <section className="card">
          <ReplicaState data={state} emptyText="" />
        </section>
      </div>
    );
  }
  const link = inviteLink(data.inviteCode);
  return (
    <div className="page account">
      <StaleNote at={replica.pulledAt} />
      <FormCard title={t('invite.title')}>
        <p className="invite-code" dir="ltr">
          {data.inviteCode}
        </p>
        <p className="invite-link" dir="ltr">
          {link}
        </p>
        <div className="row-actions">
          <CopyButton text={data.inviteCode} label={t('invite.copyCode')} />
          <CopyButton text={link} label={t('invite.copyLink')} />
        </div>
        <p className="hint">{t('invite.terms', { rate: data.shareRate })}</p>
      </FormCard>

      <section className="card" aria-labelledby="earnings-title">
        <h2 id="earnings-title" className="section-title">
          {t('invite.earnings')}
        </h2>
        <p className="figure" dir="ltr">
          {money(data.earnings)}
        </p>
      </section>

      <section className="card" aria-labelledby="downline-title">
        <h2 id="downline-title" className="section-title">
          {t('invite.downline', { count: data.downline.length })}
        </h2>
        {data.downline.length === 0 ? (
          <p className="empty">{t('invite.empty')}</p>
        ) : (
          <ul className="plain-list" aria-labelledby="downline-title">
            {data.downline.map((m) => (
              <li key={m.id}>
                <span>
                  <strong dir="ltr">{m.username}</strong> <span className="muted">{vipLabel(m.vip)}</span>
                  <br />
                  <span className="muted">
                    {t('invite.joined', { date: formatTime(m.joinedAt, 'YYYY-MM-DD') })}
                  </span>
                </span>
                <span dir="ltr">{money(m.earnings)}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
