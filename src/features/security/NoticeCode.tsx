/** A message's anti-phishing code (docs/SPEC.md §10): a message from Strata carries the member's own phrase. */
import { useTranslation } from 'react-i18next';

export function NoticeCode({ code }: { code: string | null }) {
  const { t } = useTranslation();
  if (code === null) return <div className="record-meta">{t('security.notices.noCode')}</div>;
  return (
    <div className="record-meta notice-code">
      <span>{t('security.notices.codeLabel')}</span> <bdi className="phrase">{code}</bdi>
    </div>
  );
}
