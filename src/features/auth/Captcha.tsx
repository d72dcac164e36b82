/**
 * The registration captcha (GET /index/index/verify): the image, a refresh button, and in demo mode the
 * code itself, labelled as a demo aid. A code is good for one attempt, so the parent bumps `generation`
 * after a failed registration to fetch a new one.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { useSiteDemo } from '../../api/site-config';

export interface CaptchaValue {
  key: string;
  image: string;
  code?: string;
}

export function useCaptcha(generation: number): {
  captcha: CaptchaValue | null;
  failed: boolean;
  refresh: () => void;
} {
  const [captcha, setCaptcha] = useState<CaptchaValue | null>(null);
  const [failed, setFailed] = useState(false);
  const [nonce, setNonce] = useState(0);
  useEffect(() => {
    let live = true;
    setFailed(false);
    api.call('/index/index/verify', undefined, { auth: false, silent: true }).then(
      (data) => live && setCaptcha(data),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [generation, nonce]);
  return { captcha, failed, refresh: () => setNonce((n) => n + 1) };
}

export function CaptchaImage({
  captcha,
  failed,
  onRefresh,
}: {
  captcha: CaptchaValue | null;
  failed: boolean;
  onRefresh: () => void;
}) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="captcha"
      onClick={onRefresh}
      // Named for its action only while it shows the image; a placeholder's visible text is its name.
      aria-label={captcha && !failed ? t('auth.captchaRefresh') : undefined}
      title={t('auth.captchaRefresh')}
    >
      {captcha && !failed ? (
        <img src={captcha.image} alt={t('auth.captchaImage')} width={110} height={40} />
      ) : (
        <span className="captcha-placeholder">{failed ? t('auth.captchaFailed') : t('common.loading')}</span>
      )}
    </button>
  );
}

/** Demo mode answers the code with the image; saying so keeps the simulation honest and the demo usable. */
export function CaptchaDemoHint({ captcha }: { captcha: CaptchaValue | null }) {
  const demo = useSiteDemo();
  const { t } = useTranslation();
  if (!demo || !captcha?.code) return null;
  return <span className="demo-inline">{t('auth.captchaDemo', { code: captcha.code })}</span>;
}
