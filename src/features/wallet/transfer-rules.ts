/**
 * Internal transfer checks before sending (SPEC.md §5): a recipient (username, phone or e-mail), an amount
 * of at least the site's minimum (`limits.minTransfer` of /api/site/getsite, from the engine's config; left
 * to the engine while unknown) with at most 6 decimals, not more than is available, and not oneself. The
 * receiver's VIP and limits are the server's to judge (3002-3004).
 */
import { checkAmount, type AmountReason } from '../../lib/amount';

export type AccountReason = 'required' | 'self';

export interface TransferErrors {
  account?: AccountReason;
  amount?: AmountReason;
}

export function validateTransfer(
  form: { account: string; amount: string },
  me: { username: string; email?: string | null; phone?: string | null } | null,
  available?: string,
  minimum = '0',
): TransferErrors {
  const errors: TransferErrors = {};
  const account = form.account.trim();
  if (account === '') errors.account = 'required';
  else if (
    me &&
    [me.username, me.email, me.phone].some((v) => v && v.toLowerCase() === account.toLowerCase())
  )
    errors.account = 'self';
  const amount = checkAmount(form.amount, minimum, available);
  if (amount) errors.amount = amount;
  return errors;
}
