/**
 * The take-profit and stop-loss inputs of a contract order (ContractForm) and of an open position
 * (TriggersDialog): each a mark price in USDT, checked against the mark (K17; order-rules.ts checkTrigger).
 */
import { useTranslation } from 'react-i18next';
import { useFigure } from '../../ui/Amount';
import { Field } from '../../ui/Field';
import { cleanAmount } from '../../lib/amount';
import { checkTrigger, type TriggerReason } from './order-rules';

export interface Triggers {
  takeProfit: string;
  stopLoss: string;
}

export const NO_TRIGGERS: Triggers = { takeProfit: '', stopLoss: '' };

const FIELDS = [
  { name: 'takeProfit', kind: 'tp' },
  { name: 'stopLoss', kind: 'sl' },
] as const;

/** Why each trigger is refused against the mark (null when fine or empty). */
export function triggerReasons(
  side: 'long' | 'short',
  triggers: Triggers,
  mark: string | undefined,
): { takeProfit: TriggerReason | null; stopLoss: TriggerReason | null } {
  return {
    takeProfit: checkTrigger('tp', side, triggers.takeProfit, mark),
    stopLoss: checkTrigger('sl', side, triggers.stopLoss, mark),
  };
}

export function TriggerFields({
  symbol,
  side,
  mark,
  value,
  onChange,
  showErrors,
}: {
  symbol: string;
  side: 'long' | 'short';
  mark: string | undefined;
  value: Triggers;
  onChange: (next: Triggers) => void;
  /** The member tried to submit: the refused triggers say why. */
  showErrors: boolean;
}) {
  const { t } = useTranslation();
  const figure = useFigure();
  const reasons = triggerReasons(side, value, mark);
  const error = (reason: TriggerReason | null) =>
    showErrors && reason
      ? t(`tradeScreen.error.${reason}`, { mark: mark ? figure(mark, { kind: 'price', symbol }) : '--' })
      : undefined;
  return (
    <>
      {FIELDS.map(({ name, kind }) => (
        <Field
          key={name}
          label={t(`tradeScreen.${name}`)}
          name={name}
          inputMode="decimal"
          autoComplete="off"
          value={value[name]}
          error={error(reasons[name])}
          hint={t(`tradeScreen.${kind}Hint.${side}`)}
          onChange={(e) => onChange({ ...value, [name]: cleanAmount(e.target.value) })}
          addon={<span className="unit">USDT</span>}
        />
      ))}
    </>
  );
}
