/** Members for the server benches, made over HTTP on a test server (engine/operations credits deposits). */
import { signUp, type Session, type TestServer } from '../../tests/engine/server/serve';

/** Credits `amount` USDT to each member (deposits submitted and credited, then one settle). */
export async function fund(
  server: TestServer,
  members: Session[],
  amount: string,
  nonce: number,
): Promise<void> {
  for (const [i, member] of members.entries()) {
    const txid = (nonce * 1_000_000 + i).toString(16).padStart(64, '0');
    const r = await server.call('/api/recharge/submit', { network: 'TRC20', amount, txid }, member);
    if (r.code !== 0) throw new Error(`deposit: ${r.code} ${r.msg}`);
    if (!(await server.engine.operations.creditDeposit(r.data.id))) throw new Error('deposit: not credited');
  }
  server.clock.advance(61_000);
  await server.engine.settle();
}

export interface Pair {
  sender: Session;
  recipient: string;
  /** The sender's request headers and a 1 USDT transfer body to its recipient. */
  headers: Record<string, string>;
  body: string;
}

/**
 * `count` disjoint pairs: sender `<prefix>s<i>` (1,000,000 USDT) pays recipient `<prefix>r<i>` (VIP 1), so
 * concurrent transfers of different pairs share no row.
 */
export async function seedPairs(server: TestServer, count: number, prefix = ''): Promise<Pair[]> {
  const senders: Session[] = [];
  const recipients: Session[] = [];
  for (let i = 0; i < count; i++) {
    senders.push(await signUp(server, `${prefix}s${i}`));
    recipients.push(await signUp(server, `${prefix}r${i}`));
  }
  await fund(server, senders, '1000000', 7);
  await fund(server, recipients, '100', 8);
  for (const to of recipients) {
    const vip = await server.call('/api/Viplist/Buyvip', { level: 1, key: 'key1' }, to);
    if (vip.code !== 0) throw new Error(`Buyvip: ${vip.code} ${vip.msg}`);
  }
  return senders.map((sender, i) => ({
    sender,
    recipient: `${prefix}r${i}`,
    headers: sender.headers,
    body: JSON.stringify({ account: `${prefix}r${i}`, amount: '1' }),
  }));
}
