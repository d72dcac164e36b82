/** The member's VIP level from the stored user ('vip3' -> 3); anything unexpected counts as 0. */
export function vipLevel(vip: string | undefined): number {
  const m = /^vip(\d)$/i.exec(vip ?? '');
  return m ? Number(m[1]) : 0;
}
