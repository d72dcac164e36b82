/**
 * The demo tools (issue 5), opened from the demo badge: fast-forward the simulated clock so reviews,
 * confirmations, VIP expiry and finance earnings can be seen happening, and reset every demo record. It is
 * only offered in demo mode; everything here is labelled as a simulation.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { demoControls, type DemoControls } from '../../api';
import { toastStore } from '../../state/toast-store';
import { userStore } from '../../state/user-store';
import { formatTime } from '../../lib/format';
import { Dialog } from '../../ui/Dialog';
import { aheadParts } from './clock-text';
import { announceDemoChange } from '../../lib/demo-events';
import { PATHS } from '../../lib/paths';
import './demo.css';

const HOUR = 3_600_000;
const STEPS = [
  { ms: HOUR, key: 'demoTools.hour' },
  { ms: 24 * HOUR, key: 'demoTools.day' },
  { ms: 30 * 24 * HOUR, key: 'demoTools.month' },
] as const;

export function DemoToolsPanel({
  onClose,
  controls = demoControls(),
  wallNow = () => Date.now(),
}: {
  onClose: () => void;
  controls?: DemoControls | null;
  wallNow?: () => number;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [now, setNow] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirmReset, setConfirmReset] = useState(false);
  const [status, setStatus] = useState('');

  useEffect(() => {
    let live = true;
    controls?.now().then(
      (ms) => live && setNow(ms),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [controls]);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch {
      setStatus(t('demoTools.failed'));
    } finally {
      setBusy(false);
    }
  };

  const advance = (ms: number, labelKey: string) =>
    run(async () => {
      if (!controls) return;
      setNow(await controls.advance(ms));
      const text = t('demoTools.advanced', { step: t(labelKey) });
      setStatus(text);
      toastStore.show(text, 'success');
      announceDemoChange();
    });

  const reset = () =>
    run(async () => {
      if (!controls) return;
      await controls.reset();
      // Every member and token is gone with the data: the stored session means nothing any more.
      userStore.clear();
      announceDemoChange();
      toastStore.show(t('demoTools.resetDone'), 'success');
      onClose();
      void navigate(PATHS.home);
    });

  const ahead = now === null ? null : aheadParts(now - wallNow());
  return (
    <Dialog title={t('demo.title')} onClose={onClose}>
      <p>{t('demo.body')}</p>
      {!controls ? (
        <p className="hint">{t('demoTools.unavailable')}</p>
      ) : (
        <>
          <section className="demo-tools" aria-labelledby="demo-clock-title">
            <h3 id="demo-clock-title" className="demo-tools-title">
              {t('demoTools.clockTitle')}
            </h3>
            <p className="demo-note">{t('demoTools.clockNote')}</p>
            <p className="hint">{t('demoTools.sessionNote')}</p>
            <p aria-live="polite">
              {now === null ? t('common.loading') : t('demoTools.now', { time: formatTime(now) })}
              {ahead && (ahead.days > 0 || ahead.hours > 0) && (
                <>
                  {' '}
                  <span className="muted">{t('demoTools.ahead', ahead)}</span>
                </>
              )}
            </p>
            <div className="demo-tools-steps">
              {STEPS.map((step) => (
                <button
                  key={step.ms}
                  type="button"
                  className="button"
                  disabled={busy}
                  onClick={() => void advance(step.ms, step.key)}
                >
                  {t('demoTools.forward', { step: t(step.key) })}
                </button>
              ))}
            </div>
          </section>
          <section className="demo-tools" aria-labelledby="demo-reset-title">
            <h3 id="demo-reset-title" className="demo-tools-title">
              {t('demoTools.resetTitle')}
            </h3>
            <p className="hint">{t('demoTools.resetNote')}</p>
            {confirmReset ? (
              <div className="demo-tools-steps" role="group" aria-label={t('demoTools.resetConfirm')}>
                <p role="alert">{t('demoTools.resetConfirm')}</p>
                <button type="button" className="button danger" disabled={busy} onClick={() => void reset()}>
                  {t('demoTools.resetYes')}
                </button>
                <button type="button" className="button" onClick={() => setConfirmReset(false)}>
                  {t('common.cancel')}
                </button>
              </div>
            ) : (
              <button type="button" className="button" disabled={busy} onClick={() => setConfirmReset(true)}>
                {t('demoTools.reset')}
              </button>
            )}
          </section>
        </>
      )}
      <p className="visually-hidden" role="status">
        {status}
      </p>
    </Dialog>
  );
}
