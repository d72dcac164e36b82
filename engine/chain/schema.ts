/** Request-side helpers for calls that name a network or an address (deposits, withdrawals, demo chain). */
import { z } from 'zod';
import { Codes, fail } from '../errors';
import type { Network } from './addresses';
import { validateAddress } from './validate';

export const networkSchema = z.enum(['TRC20', 'ERC20'], { message: 'network must be "TRC20" or "ERC20"' });

/**
 * The canonical form of `address` on `network`, or a thrown catalogue error: 421 for an address of the
 * other network (so the app can offer to switch), 420 for anything else invalid (docs/DECISIONS.md).
 */
export function requireAddress(network: Network, address: string): string {
  const check = validateAddress(network, address);
  if (check.ok) return check.address;
  if (check.reason === 'other-network') {
    throw fail(Codes.addressOtherNetwork, check.message, { network, detected: check.detected });
  }
  throw fail(Codes.addressInvalid, check.message, { network });
}
