/** /home/more: every function by label, each a link or a popup. */
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { popupStore } from '../../state/popup-store';
import { InstallEntry } from '../../pwa/InstallEntry';
import { Icon } from '../../ui/icons';
import { MORE_SECTIONS } from './more-items';

export function MorePage() {
  const { t } = useTranslation();
  return (
    <div className="page more">
      {MORE_SECTIONS.map((section) => (
        <section key={section.titleKey} className="card" aria-labelledby={section.titleKey}>
          <h2 id={section.titleKey} className="section-title">
            {t(section.titleKey)}
          </h2>
          <ul className="menu-list">
            {section.items.map((item) => (
              <li key={item.labelKey}>
                {'to' in item ? (
                  <Link className="menu-item" to={item.to}>
                    <span>{t(item.labelKey)}</span>
                    <Icon name="chevron" className="flip-rtl" />
                  </Link>
                ) : (
                  <button type="button" className="menu-item" onClick={() => popupStore.open(item.popup)}>
                    <span>{t(item.labelKey)}</span>
                    <Icon name="chevron" className="flip-rtl" />
                  </button>
                )}
              </li>
            ))}
          </ul>
        </section>
      ))}
      <InstallEntry />
    </div>
  );
}
