/** A menu of links, one row each: the label, then a chevron that turns to point the other way right to left. */
import { Link } from '../lib/router';
import { Icon } from './icons';

export function MenuLinks({ links }: { links: { to: string; label: string }[] }) {
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
