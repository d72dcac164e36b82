/**
 * /user/devices (docs/SPEC.md §10): the sessions signed in now (this device first), each with its device,
 * approximate place (the network it connected from) and time, "Log out this device" on the others and "Log
 * out all other devices"; the login history (new devices marked, how the member signed in); and the
 * messages the service sent (a login from a new device...), each with the anti-phishing code. Sessions and
 * history are the device cache's last answers, messages the replica's: all readable offline with their
 * time; logging devices out needs a connection.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import type { DataOf, NoticeView } from '../../../engine/index';
import { toastStore } from '../../state/toast-store';
import { formatTime } from '../../lib/format';
import { deviceText, noticeText, placeText } from '../../lib/notice-text';
import { toFailure, type Failure } from '../../machines/failure';
import { useCached } from '../../sync/cache';
import { useReplicaPage } from '../../sync/live';
import { StaleNote } from '../../ui/Freshness';
import { PAGE_SIZE } from '../../ui/list-page';
import { NeedsConnection } from '../../ui/NeedsConnection';
import { OfflineNote } from '../../ui/OfflineNote';
import { QueryState } from '../../ui/QueryState';
import { ReplicaList } from '../../ui/ReplicaList';
import { SecondFactorDialog } from '../../ui/SecondFactorDialog';
import { NoticeCode } from './NoticeCode';
import './security.css';

type Session = DataOf<'/api/security/sessions'>['list'][number];
type Login = DataOf<'/api/security/logins'>['list'][number];

const TIME = 'YYYY-MM-DD HH:mm';

export function DevicesPage() {
  const { t } = useTranslation();
  const [version, setVersion] = useState(0);
  const sessions = useCached(
    'security:sessions',
    () => api.call('/api/security/sessions', undefined, { silent: true }),
    { member: true, refresh: version },
  );
  const logins = useCached(
    'security:logins',
    () => api.call('/api/security/logins', { page: 1, limit: 50 }, { silent: true }),
    { member: true, refresh: version },
  );
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const others = sessions.data?.list.filter((s) => !s.current).length ?? 0;

  async function logout(session: Session) {
    setBusy(true);
    try {
      await api.call('/api/security/sessions/logout', { id: session.id });
      toastStore.show(t('security.devices.loggedOut'), 'success');
      setVersion((v) => v + 1);
    } catch {
      // Presented by the API client.
    } finally {
      setBusy(false);
    }
  }

  async function logoutOthers() {
    setBusy(true);
    setFailure(null);
    try {
      const { ended } = await api.call('/api/security/sessions/logoutOthers', undefined, { silent: true });
      setAsking(false);
      toastStore.show(t('security.devices.loggedOutOthers', { count: String(ended) }), 'success');
      setVersion((v) => v + 1);
    } catch (error) {
      setFailure(toFailure(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="page security">
      <OfflineNote />
      <StaleNote at={sessions.stale ? sessions.at : null} />
      <section className="card" aria-labelledby="sessions-title">
        <h2 id="sessions-title" className="section-title">
          {t('security.devices.sessions')}
        </h2>
        {sessions.data ? (
          <>
            <ul className="item-list" aria-labelledby="sessions-title">
              {sessions.data.list.map((s) => (
                <li key={s.id} className="item">
                  <div className="item-head">
                    <bdi>{deviceText(s.device, t)}</bdi>
                    {s.current && (
                      <span className="badge badge-good">{t('security.devices.thisDevice')}</span>
                    )}
                  </div>
                  <div className="item-meta">
                    <bdi>{placeText(s.place, s.network, t)}</bdi>
                  </div>
                  <div className="item-meta">
                    {t('security.devices.signedIn', { time: formatTime(s.createdAt, TIME) })}
                  </div>
                  {!s.current && (
                    <NeedsConnection>
                      <button
                        type="button"
                        className="button small"
                        disabled={busy}
                        aria-label={`${t('security.devices.logout')}: ${deviceText(s.device, t)}`}
                        onClick={() => void logout(s)}
                      >
                        {t('security.devices.logout')}
                      </button>
                    </NeedsConnection>
                  )}
                </li>
              ))}
            </ul>
            {others > 0 && (
              <NeedsConnection>
                <button
                  type="button"
                  className="button danger block"
                  onClick={() => {
                    setFailure(null);
                    setAsking(true);
                  }}
                >
                  {t('security.devices.logoutOthers')}
                </button>
              </NeedsConnection>
            )}
          </>
        ) : (
          <QueryState status={sessions.status} error={sessions.error} onRetry={sessions.reload} />
        )}
      </section>

      <section className="card" aria-labelledby="history-title">
        <h2 id="history-title" className="section-title">
          {t('security.devices.history')}
        </h2>
        {logins.data ? (
          logins.data.list.length === 0 ? (
            <p className="muted">{t('security.devices.historyEmpty')}</p>
          ) : (
            <ul className="item-list" aria-labelledby="history-title">
              {logins.data.list.map((l) => (
                <LoginItem key={l.id} login={l} />
              ))}
            </ul>
          )
        ) : (
          <QueryState status={logins.status} error={logins.error} onRetry={logins.reload} />
        )}
      </section>

      <Messages />

      {asking && (
        <SecondFactorDialog
          title={t('security.devices.logoutOthersTitle')}
          confirmLabel={t('security.devices.logoutOthers')}
          action="security"
          passkeys={false}
          required={false}
          busy={busy}
          failure={failure}
          onConfirm={() => void logoutOthers()}
          onClose={() => setAsking(false)}
        />
      )}
    </div>
  );
}

function LoginItem({ login: l }: { login: Login }) {
  const { t } = useTranslation();
  const factor =
    l.secondFactor === 'totp'
      ? t('security.devices.factorTotp')
      : l.secondFactor === 'recovery'
        ? t('security.devices.factorRecovery')
        : l.secondFactor === 'passkey'
          ? t('security.devices.factorPasskey')
          : null;
  return (
    <li className="item">
      <div className="item-head">
        <bdi>{deviceText(l.device, t)}</bdi>
        {l.newDevice && <span className="badge badge-wait">{t('security.devices.newDevice')}</span>}
      </div>
      <div className="item-meta">
        <bdi>{placeText(l.place, l.network, t)}</bdi>
      </div>
      <div className="item-meta">
        <bdi>{formatTime(l.time, TIME)}</bdi>
        {' · '}
        {t(l.method === 'passkey' ? 'security.devices.methodPasskey' : 'security.devices.methodPassword')}
        {factor ? ` ${factor}` : ''}
      </div>
    </li>
  );
}

/** The service's messages to the member (synced: readable offline), each with the anti-phishing code. */
function Messages() {
  const { t } = useTranslation();
  const notices = useReplicaPage<NoticeView>('notices', PAGE_SIZE);
  return (
    <section className="card" aria-labelledby="notices-title">
      <h2 id="notices-title" className="section-title">
        {t('security.notices.title')}
      </h2>
      <ReplicaList
        label={t('security.notices.title')}
        data={notices}
        itemKey={(n) => n.id}
        emptyText={t('security.notices.empty')}
        renderItem={(n) => (
          <>
            <div className="record-head">
              <span>{noticeText(n, t)}</span>
            </div>
            <NoticeCode code={n.antiPhishing} />
            <div className="record-meta">{formatTime(n.createdAt, TIME)}</div>
          </>
        )}
      />
    </section>
  );
}
