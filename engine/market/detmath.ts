/**
 * exp and log built from IEEE basic operations only. Math.exp and Math.log may differ in the last bit
 * between JavaScript engines; the simulated prices must not (same seed, same prices, on any engine).
 */

const LN2_HI = 0.6931471803691238;
const LN2_LO = 1.9082149292705877e-10;
const INV_LN2 = 1.4426950408889634;
const LN2 = LN2_HI + LN2_LO;

const POW2: number[] = [];
for (let k = -1074, v = Number.MIN_VALUE; k <= 1023; k++, v *= 2) POW2.push(v);

function pow2(k: number): number {
  const v = POW2[k + 1074];
  if (v === undefined) return k > 0 ? Infinity : 0;
  return v;
}

/** e^x with a relative error below 1e-15 for |x| < 700. */
export function dexp(x: number): number {
  const k = Math.round(x * INV_LN2);
  const r = x - k * LN2_HI - k * LN2_LO;
  // Horner form of the Taylor series to degree 13 (unrolled: this is the simulator's hot path);
  // |r| <= 0.35 keeps the remainder below 1e-16.
  const p =
    1 +
    r *
      (1 +
        r *
          (1 / 2 +
            r *
              (1 / 6 +
                r *
                  (1 / 24 +
                    r *
                      (1 / 120 +
                        r *
                          (1 / 720 +
                            r *
                              (1 / 5040 +
                                r *
                                  (1 / 40320 +
                                    r *
                                      (1 / 362880 +
                                        r *
                                          (1 / 3628800 +
                                            r *
                                              (1 / 39916800 + r * (1 / 479001600 + r / 6227020800))))))))))));
  return p * pow2(k);
}

/** Natural log of a positive finite x, via x = m * 2^k and ln m = 2 atanh((m - 1) / (m + 1)). */
export function dlog(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) throw new RangeError('dlog needs a positive finite number');
  let k = 0;
  let m = x;
  while (m >= 1.4142135623730951) {
    m /= 2;
    k++;
  }
  while (m < 0.7071067811865476) {
    m *= 2;
    k--;
  }
  const s = (m - 1) / (m + 1);
  const s2 = s * s;
  let sum = 0;
  for (let n = 41; n >= 1; n -= 2) sum = sum * s2 + 1 / n;
  return 2 * s * sum + k * LN2;
}
