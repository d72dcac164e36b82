/**
 * Each locale is one source file (locales/<lang>/translation.json, one key set), shipped as a few parts so
 * that every file a member downloads stays within ARCHITECTURE.md's 10 KiB gzip budget. A part is a set of
 * top-level namespaces; `core` is everything else (shell, errors, statuses, home, demo tools...). All parts of
 * the active language load in parallel before the app mounts, so no screen ever shows a key.
 */
export const LOCALE_PARTS = {
  account: ['auth', 'account', 'bank', 'invite', 'buycoin', 'help', 'financeLog'],
  wallet: ['wallet', 'assets', 'recharge', 'withdraw', 'transfer', 'move', 'vip', 'records', 'outbox'],
  markets: ['market', 'kline', 'trade'],
  finance: ['finance', 'mining'],
} as const satisfies Record<string, readonly string[]>;

export type LocalePart = 'core' | keyof typeof LOCALE_PARTS;

export const PART_NAMES: readonly LocalePart[] = ['core', ...(Object.keys(LOCALE_PARTS) as LocalePart[])];

const OWNER = new Map<string, LocalePart>(
  Object.entries(LOCALE_PARTS).flatMap(([part, names]) => names.map((n) => [n, part as LocalePart] as const)),
);

/** The top-level namespaces of `tree` that belong to `part`. */
export function pickPart<T>(tree: Record<string, T>, part: LocalePart): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [key, value] of Object.entries(tree)) if ((OWNER.get(key) ?? 'core') === part) out[key] = value;
  return out;
}
