/**
 * A successful login, kept where the member can see it: the session's device and place, a row of the login
 * history (the oldest beyond `loginHistoryLimit` dropped), the device remembered, and a notice on the feed
 * when the device is new (not for a member's very first device, which has nothing to be told apart from).
 */
import type { MemberRow } from '../accounts/tables';
import type { Ctx } from '../context';
import { openSession } from '../security/sessions';
import { requireSecondFactor } from '../twofactor/require';
import type { ClientInfo } from './client';
import { notify } from './notices';
import { knownDevices, logins, type LoginMethod, type LoginRow } from './tables';

function deviceRowId(memberId: string, deviceKey: string): string {
  return `${memberId}:${deviceKey}`;
}

export async function isKnownDevice(ctx: Ctx, memberId: string, client: ClientInfo): Promise<boolean> {
  if (!client.deviceKey) return false;
  return (await ctx.tx.get(knownDevices, deviceRowId(memberId, client.deviceKey))) !== undefined;
}

/**
 * Opens the member's session after their password (or passkey) was right. A password login from a device the
 * member has not used asks for the second factor first (6101 when two-factor authentication is on).
 */
export async function completeLogin(
  ctx: Ctx,
  member: MemberRow,
  client: ClientInfo,
  method: LoginMethod,
  code: string | undefined,
): Promise<string> {
  const known = await isKnownDevice(ctx, member.id, client);
  let secondFactor: string | null = null;
  if (!known && method === 'password') {
    const used = await requireSecondFactor(ctx, member, 'login', { code });
    secondFactor = used === 'none' ? null : used;
  }
  if (method === 'passkey') secondFactor = 'passkey';
  const { token, sessionId } = await openSession(ctx, member.id, {
    device: client.device,
    place: client.kind,
    network: client.network,
    method,
  });
  const history = await ctx.tx.query(logins, 'member', member.id);
  const row: LoginRow = {
    id: await ctx.ids.next('login'),
    memberId: member.id,
    at: ctx.now,
    method,
    device: client.device,
    place: client.kind,
    network: client.network,
    newDevice: !known,
    secondFactor,
    sessionId,
  };
  ctx.tx.put(logins, row);
  const excess = history.length + 1 - ctx.config.loginHistoryLimit;
  if (excess > 0) {
    const oldest = [...history].sort((a, b) => a.at - b.at || Number(a.id) - Number(b.id)).slice(0, excess);
    for (const old of oldest) ctx.tx.delete(logins, old.id);
  }
  if (client.deviceKey) {
    const id = deviceRowId(member.id, client.deviceKey);
    const seen = await ctx.tx.get(knownDevices, id);
    ctx.tx.put(knownDevices, {
      id,
      memberId: member.id,
      device: client.device,
      firstSeenAt: seen?.firstSeenAt ?? ctx.now,
      lastSeenAt: ctx.now,
    });
  }
  if (!known && history.length > 0) {
    await notify(ctx, member.id, 'login.newDevice', {
      device: client.device ?? '',
      place: client.kind,
      network: client.network ?? '',
      method,
    });
  }
  return token;
}
