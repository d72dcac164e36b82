/** /user/help: the help centre's articles in the member's language (POST /api/help/list { lang }). */
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { CachedNote } from '../../ui/Freshness';
import { QueryState } from '../../ui/QueryState';
import { useCached } from '../../sync/cache';
import './account.css';

export function HelpPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const help = useCached(`help:${lang}`, () =>
    api.call('/api/help/list', { lang }, { auth: false, silent: true }),
  );
  const list = help.status === 'ready' ? help.data.list : [];
  return (
    <div className="page account">
      <CachedNote at={help.at} stale={help.stale} />
      <section className="card" aria-labelledby="help-title">
        <h2 id="help-title" className="section-title">
          {t('help.title')}
        </h2>
        {list.map((article) => (
          <details key={article.id} className="help-item">
            <summary>{article.title}</summary>
            <p>{article.content}</p>
          </details>
        ))}
        <QueryState
          status={help.status}
          error={help.error}
          onRetry={help.reload}
          isEmpty={list.length === 0}
          emptyText={t('help.empty')}
        />
      </section>
      <p className="hint">{t('help.more')}</p>
    </div>
  );
}
