/** The five bottom tabs; NavLink marks the active one with aria-current="page". */
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router-dom';
import { Icon, type IconName } from '../ui/icons';
import { TABS, type TabIcon } from './paths';

const ICONS: Record<TabIcon, IconName> = {
  home: 'home',
  market: 'market',
  trade: 'trade',
  finance: 'finance',
  assets: 'assets',
};

export function TabBar() {
  const { t } = useTranslation();
  return (
    <nav className="tabbar" aria-label={t('nav.tabs')}>
      <ul>
        {TABS.map((tab) => (
          <li key={tab.path}>
            <NavLink to={tab.path} className="tab">
              <Icon name={ICONS[tab.icon]} />
              <span>{t(tab.labelKey)}</span>
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
