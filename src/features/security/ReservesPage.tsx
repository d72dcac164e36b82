/**
 * /user/reserves, "Proof of reserves" (docs/SPEC.md §10; API.md "Proof of reserves"): the member downloads
 * their own inclusion proof in the latest hourly snapshot, the device keeps it (the device cache) and checks
 * it itself: the snapshot's signature, then the member's leaf and path up to the signed root and total
 * (reserves-check.ts), and that the signing key is one the app trusts: pinned in the build (the demo key in demo
 * mode), or, with none pinned, the key this device saw first, with a warning if a later snapshot has another.
 * Offline the stored proof is checked again, with the time it was downloaded. In demo mode it says plainly
 * that the balances and reserves are simulated.
 */
import { Fragment, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { isApiError } from '../../api/api-error';
import { useSiteDemo } from '../../api/site-config';
import { formatMicro, parseAmountText, RESERVE_ACCOUNTS, type ReserveProof } from '../../../engine/index';
import { formatTime } from '../../lib/format';
import { useCached } from '../../sync/cache';
import { Amount } from '../../ui/Amount';
import { CachedNote } from '../../ui/Freshness';
import { NeedsConnection } from '../../ui/NeedsConnection';
import { OfflineNote } from '../../ui/OfflineNote';
import { QueryState } from '../../ui/QueryState';
import { checkReserveProof, rememberKey, type ReserveVerdict } from './reserves-check';
import './security.css';

const TIME = 'YYYY-MM-DD HH:mm';
const HOUR_S = 3_600;

/** The proof, or why there is none yet (6141 before the first snapshot, 6142 for a newer account). */
type ProofAnswer = { proof: ReserveProof } | { waiting: 6141 | 6142; next: number };

async function loadProof(): Promise<ProofAnswer> {
  try {
    return { proof: await api.call('/api/reserves/proof', undefined, { silent: true }) };
  } catch (error) {
    if (isApiError(error) && (error.code === 6141 || error.code === 6142)) {
      const data = error.data;
      const next = typeof data === 'object' && data !== null && 'next' in data ? data.next : undefined;
      return { waiting: error.code, next: typeof next === 'number' ? next : 0 };
    }
    throw error;
  }
}

function useVerdict(proof: ReserveProof | undefined, trustVersion: number): ReserveVerdict | null {
  const [verdict, setVerdict] = useState<{ of: string; verdict: ReserveVerdict } | null>(null);
  // The member accepting a new key (trustVersion) checks the same proof again.
  const key = proof ? `${trustVersion}:${JSON.stringify(proof)}` : null;
  useEffect(() => {
    if (!proof || key === null) return;
    let live = true;
    void checkReserveProof(proof).then((v) => live && setVerdict({ of: key, verdict: v }));
    return () => {
      live = false;
    };
    // `key` stands for the proof's content: a re-read of the same stored proof is not checked again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return verdict && verdict.of === key ? verdict.verdict : null;
}

export function ReservesPage() {
  const { t } = useTranslation();
  const answer = useCached('reserves:proof', loadProof, { member: true });
  const data = answer.data;
  const proof = data && 'proof' in data ? data.proof : undefined;
  const [trustVersion, setTrustVersion] = useState(0);
  const verdict = useVerdict(proof, trustVersion);
  const demo = useSiteDemo() || proof?.snapshot.demo === true;

  return (
    <div className="page security reserves">
      <OfflineNote />
      <CachedNote at={answer.at} stale={answer.stale} />
      <section className="card" aria-labelledby="reserves-title">
        <h2 id="reserves-title" className="section-title">
          {t('routes.userReserves')}
        </h2>
        <p className="hint">{t('security.reserves.intro')}</p>
        {demo && <p className="demo-note">{t('security.reserves.demo')}</p>}
        {proof ? (
          <Snapshot
            proof={proof}
            verdict={verdict}
            at={answer.at}
            onTrustKey={(publicKey) => {
              rememberKey(publicKey);
              setTrustVersion((v) => v + 1);
            }}
          />
        ) : data && 'waiting' in data ? (
          <p className="status-line" role="status">
            {t(data.waiting === 6141 ? 'security.reserves.noSnapshot' : 'security.reserves.notIncluded', {
              time: formatTime(data.next, TIME),
            })}
          </p>
        ) : (
          <QueryState status={answer.status} error={answer.error} onRetry={answer.reload} />
        )}
        {data && (
          <NeedsConnection>
            <button type="button" className="button block" onClick={answer.reload}>
              {t('security.reserves.refresh')}
            </button>
          </NeedsConnection>
        )}
      </section>
      {proof && <Included proof={proof} />}
      {proof && <Details proof={proof} />}
    </div>
  );
}

function VerdictLine({
  verdict,
  onTrustKey,
}: {
  verdict: ReserveVerdict | null;
  onTrustKey: (publicKey: string) => void;
}) {
  const { t } = useTranslation();
  if (!verdict)
    return (
      <p className="verdict" role="status">
        {t('security.reserves.checking')}
      </p>
    );
  if (verdict.state === 'verified')
    return (
      <div className="verdict verdict-good" role="status">
        <p>
          <span aria-hidden="true">✓ </span>
          {t('security.reserves.verified')}
        </p>
        {verdict.key === 'firstUse' && (
          <p>{t('reservesKey.firstUse', { time: formatTime(verdict.since, TIME) })}</p>
        )}
      </div>
    );
  if (verdict.state === 'keyChanged')
    return (
      <div className="verdict verdict-bad" role="alert">
        <p>
          <span aria-hidden="true">⚠ </span>
          {t('reservesKey.changedTitle')}
        </p>
        <p>{t('reservesKey.changed', { time: formatTime(verdict.remembered.firstSeen, TIME) })}</p>
        <button type="button" className="button" onClick={() => onTrustKey(verdict.publicKey)}>
          {t('reservesKey.trustNew')}
        </button>
      </div>
    );
  return (
    <div className="verdict verdict-bad" role="alert">
      <p>
        <span aria-hidden="true">✗ </span>
        {t('security.reserves.notVerified')}
      </p>
      <p>
        {t(
          verdict.reason === 'signature'
            ? 'security.reserves.reasonSignature'
            : verdict.reason === 'key'
              ? 'errors.e6143'
              : 'security.reserves.reasonProof',
        )}
      </p>
    </div>
  );
}

function Snapshot({
  proof,
  verdict,
  at,
  onTrustKey,
}: {
  proof: ReserveProof;
  verdict: ReserveVerdict | null;
  at: number | null;
  onTrustKey: (publicKey: string) => void;
}) {
  const { t } = useTranslation();
  const s = proof.snapshot;
  return (
    <>
      <VerdictLine verdict={verdict} onTrustKey={onTrustKey} />
      <dl className="detail-list">
        <dt>{t('security.reserves.snapshotTime')}</dt>
        <dd>
          <bdi>{formatTime(s.time, TIME)}</bdi>
        </dd>
        <dt>{t('security.reserves.total')}</dt>
        <dd>
          <Amount value={s.total} kind="exact" unit="USDT" />
        </dd>
        <dt>{t('security.reserves.members')}</dt>
        <dd>
          <bdi>{s.leafCount}</bdi>
        </dd>
        <dt>{t('security.reserves.next')}</dt>
        <dd>
          <bdi>{formatTime(s.time + HOUR_S, TIME)}</bdi>
        </dd>
        {at !== null && (
          <>
            <dt>{t('security.reserves.stored')}</dt>
            <dd>
              <bdi>{formatTime(at, TIME)}</bdi>
            </dd>
          </>
        )}
      </dl>
    </>
  );
}

/** The member's balances as the snapshot counted them (the exact amounts the leaf's hash covers). */
function Included({ proof }: { proof: ReserveProof }) {
  const { t } = useTranslation();
  const rows = RESERVE_ACCOUNTS.filter((a) => (proof.leaf.balances[a] ?? '0') !== '0');
  const mine = yourTotal(proof);
  return (
    <section className="card" aria-labelledby="reserves-mine-title">
      <h2 id="reserves-mine-title" className="section-title">
        {t('security.reserves.yours')}
      </h2>
      <dl className="detail-list">
        {rows.map((account) => {
          const [sub = '', frozen] = account.split(':');
          const name = t(`move.accounts.${sub}`);
          return (
            <Fragment key={account}>
              <dt>{frozen ? t('security.reserves.frozen', { account: name }) : name}</dt>
              <dd>
                <Amount value={proof.leaf.balances[account]} kind="exact" unit="USDT" />
              </dd>
            </Fragment>
          );
        })}
        <dt>{t('security.reserves.yourTotal')}</dt>
        <dd>
          <Amount value={mine} kind="exact" unit="USDT" />
        </dd>
      </dl>
    </section>
  );
}

/** What a member needs to check the proof with another tool: the leaf id, the secret, the root, the key. */
function Details({ proof }: { proof: ReserveProof }) {
  const { t } = useTranslation();
  function save() {
    const blob = new Blob([JSON.stringify(proof, null, 2)], { type: 'application/json' });
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = `strata-proof-of-reserves-${proof.snapshot.id}.json`;
    link.click();
    URL.revokeObjectURL(url);
  }
  return (
    <section className="card" aria-labelledby="reserves-details-title">
      <h2 id="reserves-details-title" className="section-title">
        {t('security.reserves.details')}
      </h2>
      <p className="hint">{t('security.reserves.secretHint')}</p>
      <dl className="detail-list hex-list">
        <dt>{t('security.reserves.root')}</dt>
        <dd>
          <code dir="ltr">{proof.snapshot.root}</code>
        </dd>
        <dt>{t('security.reserves.publicKey')}</dt>
        <dd>
          <code dir="ltr">{proof.snapshot.publicKey}</code>
        </dd>
        <dt>{t('security.reserves.leafId')}</dt>
        <dd>
          <code dir="ltr">{proof.leaf.leafId}</code>
        </dd>
        <dt>{t('security.reserves.nonce')}</dt>
        <dd>
          <code dir="ltr">{proof.leaf.nonce}</code>
        </dd>
        <dt>{t('security.reserves.steps')}</dt>
        <dd>
          <bdi>{proof.path.length}</bdi>
        </dd>
      </dl>
      <button type="button" className="button block" onClick={save}>
        {t('security.reserves.save')}
      </button>
    </section>
  );
}

/** The member's total in the leaf: the exact sum of its amounts (the money module's, never a float). */
function yourTotal(proof: ReserveProof): string {
  let sum = 0n;
  for (const account of RESERVE_ACCOUNTS) sum += parseAmountText(proof.leaf.balances[account] ?? '0') ?? 0n;
  return formatMicro(sum);
}
