/**
 * A 24h change: coloured up/down, with an arrow and an explicit sign as the non-colour cue, and a spoken
 * "up"/"down" for screen readers.
 */
import { useTranslation } from 'react-i18next';
import { formatFigure } from '../lib/format';
import { signOf } from '../lib/decimal';

export function Change({ value, block = false }: { value: string; block?: boolean }) {
  const { t, i18n } = useTranslation();
  const sign = signOf(value);
  const tone = sign > 0 ? 'up' : sign < 0 ? 'down' : 'flat';
  const arrow = sign > 0 ? '▲' : sign < 0 ? '▼' : '■';
  const text = `${formatFigure(value, { kind: 'percent', sign: true }, i18n.language)}%`;
  return (
    <span className={`change change-${tone}${block ? ' change-block' : ''}`} dir="ltr">
      <span aria-hidden="true">{arrow} </span>
      <span className="visually-hidden">{t(`market.${tone}`)} </span>
      {text}
    </span>
  );
}
