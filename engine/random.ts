/**
 * Seeded randomness (ARCHITECTURE.md principle 3). sfc32: small, fast, passes PractRand to 2^50, and easy to
 * reproduce in any language. Streams are forked BY NAME from the root seed, not from the parent's current
 * state, so one domain drawing more numbers never shifts another domain's sequence.
 *
 * Streams live in memory only: after a reload a stream restarts from its seed. Anything that must not repeat
 * across restarts (ids, tokens, salts) comes from persisted counters (engine/ids.ts, security/secrets.ts).
 */

export interface Random {
  /** Uniform 32-bit unsigned integer. */
  u32(): number;
  /** Uniform float in [0, 1): for simulated prices and noise, never for money. */
  next(): number;
  /** Uniform integer in [min, max] inclusive. */
  int(min: number, max: number): number;
  /** An independent stream named `name` (the same name always gives the same sequence). */
  fork(name: string): Random;
  /** Current state, so a domain may persist its stream and resume it after a restart. */
  state(): [number, number, number, number];
}

/** FNV-1a 32-bit: turns stream names into seed words. */
export function hash32(text: string, basis = 0x811c9dc5): number {
  let h = basis >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

function sfc32(state: [number, number, number, number]): () => number {
  let [a, b, c, d] = state;
  const step = (): number => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  const read = (): [number, number, number, number] => [a >>> 0, b >>> 0, c >>> 0, d >>> 0];
  return Object.assign(step, { read });
}

function makeStream(seed: number, path: string, resume?: [number, number, number, number]): Random {
  const init: [number, number, number, number] = resume ?? [
    hash32(path, seed >>> 0),
    hash32(path, (seed ^ 0x9e3779b9) >>> 0),
    hash32(`${path}#`, seed >>> 0),
    1,
  ];
  const gen = sfc32(init) as (() => number) & { read(): [number, number, number, number] };
  // Warm up: the first outputs of sfc32 from nearby seeds are correlated.
  if (!resume) for (let i = 0; i < 12; i++) gen();
  const forks = new Map<string, Random>();
  const stream: Random = {
    u32: gen,
    next: () => gen() / 4294967296,
    int: (min, max) => {
      if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || max < min) {
        throw new RangeError('int(min, max) needs integers with min <= max');
      }
      const span = max - min + 1;
      if (span <= 4294967296) {
        // Rejection sampling keeps the distribution exactly uniform.
        const limit = Math.floor(4294967296 / span) * span;
        let x = gen();
        while (x >= limit) x = gen();
        return min + (x % span);
      }
      return min + Math.floor(((gen() * 4294967296 + gen()) / 18446744073709551616) * span);
    },
    fork: (name) => {
      let child = forks.get(name);
      if (!child) {
        child = makeStream(seed, `${path}/${name}`);
        forks.set(name, child);
      }
      return child;
    },
    state: () => gen.read(),
  };
  return stream;
}

export function createRandom(seed: number): Random {
  return makeStream(seed, 'root');
}

/** Resumes a stream from `state()` (forks of the resumed stream restart from the seed). */
export function resumeRandom(seed: number, name: string, state: [number, number, number, number]): Random {
  return makeStream(seed, `root/${name}`, state);
}
