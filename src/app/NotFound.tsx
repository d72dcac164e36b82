import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PATHS } from '../lib/paths';

export function NotFound() {
  const { t } = useTranslation();
  return (
    <section className="page not-found" aria-labelledby="not-found-title">
      <h2 id="not-found-title">{t('common.notFoundTitle')}</h2>
      <p>{t('common.notFoundBody')}</p>
      <Link className="button primary" to={PATHS.home}>
        {t('common.goHome')}
      </Link>
    </section>
  );
}
