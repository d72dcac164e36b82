/** A menu of links, one row each: the label, then a chevron that turns to point the other way right to left. */
import { Link } from 'react-router-dom';
import type { AppHref } from '../lib/paths';
import { Icon } from './icons';

export function MenuLinks({ links }: { links: { to: AppHref; label: string }[] }) {
  return (
    <ul className="menu-list">
      {links.map((l) => (
        <li key={l.to}>
          <Link className="menu-item" to={l.to}>
            <span>{l.label}</span>
            <Icon name="chevron" className="flip-rtl" />
          </Link>
        </li>
      ))}
    </ul>
  );
}
