/**
 * The withdrawal form's money-out checks before its confirmation sheet (issue 27 items 3 and 4): the amount
 * against the available balance (exact micro-USDT, never floats), and the destination against the address
 * book (the member's own deposit address, the whitelist and its hold) as the engine judges it now
 * (/api/addressbook/check's `refusal`). Offline, the destination is left to the engine when the withdrawal is
 * sent.
 */
import { fromPromise } from 'xstate';
import { parseAmountText, type DestinationCheck } from '../../../engine/index';
import { api } from '../../api';
import {
  defaultValidators,
  validateForm,
  type FieldErrors,
  type FieldReason,
  type Network,
  type WithdrawalForm,
} from '../../machines/withdrawal-rules';
import { checkAddress } from './address-check';

/** True when `amount` is more than `available` (both decimal strings); false while either is unknown. */
export function aboveBalance(amount: string, available: string | undefined): boolean {
  if (available === undefined) return false;
  const value = parseAmountText(amount);
  const limit = parseAmountText(available);
  return value !== null && limit !== null && value > limit;
}

const REFUSALS: Record<NonNullable<DestinationCheck['refusal']>, FieldReason> = {
  6124: 'ownAddress',
  6126: 'notWhitelisted',
  6127: 'onHold',
};

/** What the engine says of the destination now, or null when it cannot be asked (offline, a failure). */
export async function checkDestination(network: Network, address: string): Promise<DestinationCheck | null> {
  try {
    return await api.call('/api/addressbook/check', { network, address: address.trim() }, { silent: true });
  } catch {
    return null;
  }
}

export function destinationReason(check: DestinationCheck | null): FieldReason | null {
  return check?.refusal ? REFUSALS[check.refusal] : null;
}

/**
 * The withdrawal machine's validate actor with the form rules, the engine's address rules (checksums), the
 * available balance (read when the member submits) and the address book's refusal.
 */
export function withdrawValidator(
  available: () => string | undefined,
  destination: (network: Network, address: string) => Promise<DestinationCheck | null> = checkDestination,
) {
  return fromPromise<FieldErrors, { form: WithdrawalForm; minimum: string | null }>(async ({ input }) => {
    const errors = validateForm(input.form, input.minimum, { ...defaultValidators, address: checkAddress });
    if (!errors.amount && aboveBalance(input.form.amount, available())) errors.amount = 'aboveBalance';
    if (!errors.address) {
      const reason = destinationReason(await destination(input.form.network, input.form.address));
      if (reason) errors.address = reason;
    }
    return errors;
  });
}
