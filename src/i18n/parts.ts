/**
 * Each locale is one source file (locales/<lang>/translation.json, one key set), shipped as a few parts so
 * that every file a member downloads stays within ARCHITECTURE.md's 10 KiB gzip budget. A part is a set of
 * top-level namespaces; `core` is everything else (shell, errors, statuses, home, demo tools...). The parts the
 * opened route needs (START_PARTS; all of them for most routes) load before the app mounts, the others right
 * after its first render, and every screen waits for all of them, so no screen ever shows a key.
 */
export const LOCALE_PARTS = {
  account: [
    'auth',
    'account',
    'security',
    'reservesKey',
    'bank',
    'invite',
    'buycoin',
    'help',
    'financeLog',
    'notifications',
  ],
  wallet: [
    'wallet',
    'assets',
    'recharge',
    'withdraw',
    'transfer',
    'move',
    'vip',
    'records',
    'outbox',
    'overview',
    'statement',
    'statementLines',
  ],
  markets: ['market'],
  // The trade and K-line screens' strings: off /home's first load, which shows quotes only.
  trading: ['kline', 'orderEntry', 'trade', 'tradeScreen', 'upDown'],
  finance: ['finance', 'mining'],
} as const satisfies Record<string, readonly string[]>;

export type LocalePart = 'core' | keyof typeof LOCALE_PARTS;

export const PART_NAMES: readonly LocalePart[] = ['core', ...(Object.keys(LOCALE_PARTS) as LocalePart[])];

const OWNER = new Map<string, LocalePart>(
  Object.entries(LOCALE_PARTS).flatMap(([part, names]) => names.map((n) => [n, part as LocalePart] as const)),
);

/**
 * The parts a route needs for its first frame when the app starts on it (the rest load right after the first
 * render; any other screen waits for them: src/app/routes.tsx). /home shows the shell, the home hero and the
 * quotes card (`market` keys); every other route starts with all parts.
 */
export const START_PARTS: Readonly<Record<string, readonly LocalePart[]>> = {
  '/': ['core', 'markets'],
  '/home': ['core', 'markets'],
};

/** The parts to load before the first render when the app starts at `pathname`. */
export function startParts(pathname: string): readonly LocalePart[] {
  return START_PARTS[pathname.replace(/(.)\/+$/, '$1').toLowerCase()] ?? PART_NAMES;
}

/** The top-level namespaces of `tree` that belong to `part`. */
export function pickPart<T>(tree: Record<string, T>, part: LocalePart): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [key, value] of Object.entries(tree)) if ((OWNER.get(key) ?? 'core') === part) out[key] = value;
  return out;
}
