/**
 * The checks a withdrawal passes before it is sent (SPEC.md §5, API.md constants): amount at least the
 * minimum, an address valid for the chosen network, a security key of at least 4 characters. Each returns a
 * reason code for the form to translate, or null. Amounts compare as exact micro-USDT, never as floats.
 */
import { parseAmountText } from '../../engine/index';

export type Network = 'TRC20' | 'ERC20';

export type FieldReason =
  | 'required'
  | 'invalidAmount'
  | 'belowMinimum'
  | 'invalidAddress'
  | 'otherNetwork'
  | 'keyTooShort'
  /** The money-out checks before the sheet (src/features/wallet/withdraw-checks.ts). */
  | 'aboveBalance'
  | 'ownAddress'
  | 'notWhitelisted'
  | 'onHold';

export interface FieldErrors {
  amount?: FieldReason;
  address?: FieldReason;
  key?: FieldReason;
}

export interface WithdrawalForm {
  currency: string;
  network: Network;
  address: string;
  /** A decimal string, up to 6 decimals. */
  amount: string;
  key: string;
}

export interface WithdrawalValidators {
  /** `minimum`: the site's (getsite limits or the fee quote); null until known, when the engine judges it. */
  amount(amount: string, minimum: string | null): FieldReason | null;
  address(address: string, network: Network): FieldReason | null;
  key(key: string): FieldReason | null;
}

export const KEY_MIN_LENGTH = 4;

const SHAPES: Record<Network, RegExp> = {
  TRC20: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
  ERC20: /^0x[0-9a-fA-F]{40}$/,
};

/**
 * Shape checks only. The engine's chain module also verifies checksums; when engine/index exports that
 * check, screens provide it through `validateWith({ ...defaultValidators, address })`.
 */
export const defaultValidators: WithdrawalValidators = {
  amount(amount, minimum) {
    if (amount.trim() === '') return 'required';
    const value = parseAmountText(amount);
    if (value === null || value === 0n) return 'invalidAmount';
    const floor = minimum === null ? null : parseAmountText(minimum);
    return floor !== null && value < floor ? 'belowMinimum' : null;
  },
  address(address, network) {
    const text = address.trim();
    if (text === '') return 'required';
    if (SHAPES[network].test(text)) return null;
    const other: Network = network === 'TRC20' ? 'ERC20' : 'TRC20';
    return SHAPES[other].test(text) ? 'otherNetwork' : 'invalidAddress';
  },
  key(key) {
    if (key === '') return 'required';
    return [...key].length >= KEY_MIN_LENGTH ? null : 'keyTooShort';
  },
};

export function validateForm(
  form: WithdrawalForm,
  minimum: string | null,
  validators: WithdrawalValidators = defaultValidators,
): FieldErrors {
  const errors: FieldErrors = {};
  const amount = validators.amount(form.amount, minimum);
  const address = validators.address(form.address, form.network);
  const key = validators.key(form.key);
  if (amount) errors.amount = amount;
  if (address) errors.address = address;
  if (key) errors.key = key;
  return errors;
}
