/**
 * Test set-up for the wallet screens on the accounts tests' in-memory engine (../auth/test-engine):
 * members with money (a simulated chain payment, confirmed by moving the test clock), VIP levels, and the
 * app's API client wired to the stored user as main.tsx wires it.
 */
import { wireApi } from '../../src/app/api-wiring';
import { userStore } from '../../src/state/user-store';
import { engineCall, seedMember, testClock, testEngine, type SeededMember } from './test-engine';

export { SECRETS } from './test-engine';

let wired = false;
/** Credentials and error toasts, as the app wires them at start-up. */
export function wireTestApi(): void {
  if (wired) return;
  wired = true;
  wireApi(() => undefined);
}

let counter = 0;
/** A fresh member (unique name per test) with `amount` USDT credited through the demo chain. */
export async function fundedMember(prefix: string, amount = '0'): Promise<SeededMember> {
  counter += 1;
  const member = await seedMember(`${prefix}${counter}${Date.now() % 100000}`);
  if (amount !== '0') await deposit(member, amount);
  return member;
}

export async function deposit(member: SeededMember, amount: string): Promise<void> {
  const auth = { id: member.id, token: member.token };
  const { address } = await engineCall('/api/recharge/address', { network: 'TRC20' }, auth);
  await engineCall('/api/demo/chain/send', { network: 'TRC20', address, amount }, auth);
  // TRC-20: 19 confirmations, a block every 3 s.
  testClock.advance(120_000);
  await (await testEngine()).settle();
}

export async function buyVip(member: SeededMember, level: number, key: string): Promise<void> {
  await engineCall('/api/Viplist/Buyvip', { level, key }, { id: member.id, token: member.token });
}

export async function addressOf(member: SeededMember, network: 'TRC20' | 'ERC20'): Promise<string> {
  const auth = { id: member.id, token: member.token };
  return (await engineCall('/api/recharge/address', { network }, auth)).address;
}

export function logIn(member: SeededMember): SeededMember {
  userStore.set(member);
  return member;
}
