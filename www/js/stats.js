// Summary statistics for timing runs.

export function quantileSorted(xs, q) {
  if (xs.length === 0) return NaN;
  const pos = (xs.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo);
}

export const median = (xs) => quantileSorted([...xs].sort((a, b) => a - b), 0.5);

/** A small seeded generator, so a result can be recomputed exactly. */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Percentile bootstrap interval of the median. */
export function bootstrapMedianCI(xs, { resamples = 2000, level = 0.95, seed = 12345 } = {}) {
  const n = xs.length;
  if (n === 0) return [NaN, NaN];
  if (n === 1) return [xs[0], xs[0]];
  const rand = mulberry32(seed);
  const meds = new Float64Array(resamples);
  const buf = new Float64Array(n);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < n; i++) buf[i] = xs[Math.floor(rand() * n)];
    buf.sort();
    meds[r] = quantileSorted(buf, 0.5);
  }
  meds.sort();
  const a = (1 - level) / 2;
  return [quantileSorted(meds, a), quantileSorted(meds, 1 - a)];
}

export function summarize(xs) {
  const sorted = [...xs].sort((a, b) => a - b);
  const [ciLo, ciHi] = bootstrapMedianCI(sorted);
  return {
    n: xs.length,
    min: sorted[0],
    median: quantileSorted(sorted, 0.5),
    max: sorted[sorted.length - 1],
    ciLo,
    ciHi,
  };
}

/** Fisher–Yates shuffle in place. */
export function shuffle(xs, rand = Math.random) {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
  return xs;
}
