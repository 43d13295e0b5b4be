// Summary statistics for timing runs.

export function quantileSorted(xs, q) {
  if (xs.length === 0) return NaN;
  const pos = (xs.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo);
}

export const median = (xs) => quantileSorted([...xs].sort((a, b) => a - b), 0.5);

/**
 * How the median run's time divides among `parts` (keys of each run, in
 * ms), and `otherMs`, the rest: the parts of the run in the middle by
 * `total` (an even count: the mean of the two middle runs', as the median
 * is their mean), so they add up to the median. Each part's own median
 * would not: the runs are not ordered alike by every part.
 */
export function splitOfMedian(runs, parts, total = (r) => r.wallMs) {
  const byTotal = [...runs].sort((a, b) => total(a) - total(b));
  const middle = byTotal.slice(Math.floor((byTotal.length - 1) / 2), Math.floor(byTotal.length / 2) + 1);
  const mean = (f) => (middle.length ? middle.reduce((a, r) => a + f(r), 0) / middle.length : 0);
  const split = {};
  for (const key of parts) split[key] = mean((r) => r[key]);
  // (never below 0: a run's parts can pass its total by a timer tick)
  split.otherMs = Math.max(0, mean(total) - parts.reduce((a, key) => a + split[key], 0));
  return split;
}

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
