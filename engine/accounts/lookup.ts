/** Finding members by what they type: username (any case), e-mail (any case) or phone. */
import type { Tx } from '../store/tx';
import { members, type MemberRow } from './tables';
import { emailKey, phoneKey } from './validation';

/**
 * Every member the text could name. More than one means the text is ambiguous (a digits-only username equal
 * to someone else's phone), which callers treat as an abnormal account rather than guessing.
 */
export async function findMembers(tx: Tx, text: string): Promise<MemberRow[]> {
  const t = text.trim();
  if (!t) return [];
  const found = new Map<string, MemberRow>();
  for (const m of await tx.query(members, 'username', t.toLowerCase())) found.set(m.id, m);
  for (const m of await byContact(tx, t)) found.set(m.id, m);
  return [...found.values()];
}

/** The members whose e-mail or phone the text is. */
async function byContact(tx: Tx, t: string): Promise<MemberRow[]> {
  const found = new Map<string, MemberRow>();
  const e = emailKey(t);
  if (e && e.includes('@')) for (const m of await tx.query(members, 'email', e)) found.set(m.id, m);
  const p = phoneKey(t);
  if (p && /^\+?\d+$/.test(p)) for (const m of await tx.query(members, 'phone', p)) found.set(m.id, m);
  return [...found.values()];
}

/** The member a login or forgot flow names: username first, then e-mail, then phone. */
export async function findForLogin(tx: Tx, text: string): Promise<MemberRow | undefined> {
  const t = text.trim();
  if (!t) return undefined;
  // The same reads whether or not anyone has the name (login timing says nothing about who exists): the
  // username, and the e-mail or phone the text could be, read together.
  const [byName, all] = await Promise.all([tx.query(members, 'username', t.toLowerCase()), byContact(tx, t)]);
  if (byName[0]) return byName[0];
  return all.length === 1 ? all[0] : undefined;
}
