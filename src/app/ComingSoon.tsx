/** Screens owned by later issues: a translated heading saying so, and nothing pretending to work. */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PATHS } from '../lib/paths';

export function ComingSoon() {
  const { t } = useTranslation();
  return (
    <section className="page coming-soon" aria-labelledby="coming-soon-title">
      <h2 id="coming-soon-title">{t('comingSoon.title')}</h2>
      <p>{t('comingSoon.body')}</p>
      <Link className="button" to={PATHS.home}>
        {t('common.goHome')}
      </Link>
    </section>
  );
}
