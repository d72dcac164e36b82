/**
 * Counter-based randomness for the market model. Every random number is a pure function of
 * (seed, symbol, stream, index), so any minute of history can be regenerated without replaying the
 * ticks before it (docs/DECISIONS.md "Market simulation"). Only 32-bit integer operations and IEEE
 * basic arithmetic are used, so the numbers are identical on every JavaScript engine.
 */

/** lowbias32 finaliser (Chris Wellons): a strong 32-bit avalanche mix. */
export function mix32(input: number): number {
  let x = input >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/** Hash of up to four 32-bit words; order matters. */
export function hashWords(a: number, b: number, c = 0, d = 0): number {
  let h = mix32(a ^ 0x9e3779b9);
  h = mix32(h ^ b);
  h = mix32((h + Math.imul(c, 0x85ebca6b)) >>> 0);
  return mix32(h ^ Math.imul(d, 0xc2b2ae35));
}

/** Folds an arbitrary engine seed (any finite number) into 32 bits. */
export function seed32(seed: number): number {
  const whole = Number.isFinite(seed) ? Math.trunc(seed) : 0;
  const low = whole % 4294967296;
  const high = Math.trunc(whole / 4294967296);
  return hashWords(low >>> 0, high >>> 0, 0x5eed);
}

/** A uniform number in the open interval (0, 1) from a 32-bit hash. */
export function unit(hash: number): number {
  return ((hash >>> 0) + 0.5) / 4294967296;
}

/**
 * Approximately standard normal from four uniforms (Irwin-Hall, rescaled to unit variance). Its tails
 * stop at +-3.46; fat tails come from GARCH variance mixing and the jump process instead.
 */
export function normalFrom(u1: number, u2: number, u3: number, u4: number): number {
  return (u1 + u2 + u3 + u4 - 2) * 1.7320508075688772;
}

/** A small sequential generator (mulberry32) for drawing many numbers from one hashed key. */
export class Stream {
  private state: number;

  constructor(key: number) {
    this.state = key >>> 0;
  }

  next(): number {
    return unit(this.bits());
  }

  /**
   * Approximately standard normal from four 16-bit uniforms taken from two 32-bit draws: half the cost of
   * four full draws, and 16 bits are far finer than anything the price noise needs.
   */
  normal(): number {
    const a = this.bits();
    const b = this.bits();
    // Four uniforms (x + 0.5) / 65536 summed, then the same Irwin-Hall rescaling as normalFrom.
    const sum = ((a >>> 16) + (a & 0xffff) + (b >>> 16) + (b & 0xffff) + 2) / 65536;
    return (sum - 2) * 1.7320508075688772;
  }

  private bits(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
}
