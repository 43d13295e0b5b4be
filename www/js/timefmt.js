// int64 columns that hold points in time (flights-3m's `date`: microseconds
// since 1970-01-01 UTC). The format has no time type, so the page guesses:
// an int64 column whose name speaks of time and whose footer minimum and
// maximum both fall between the years 1900 and 2200 in one unit (chosen
// by magnitude). The raw number is always one click away.

const FACTOR = { s: 1000n, ms: 1n, us: 1000n, ns: 1000000n }; // to or from milliseconds
const PER_SECOND = { s: 1, ms: 1e3, us: 1e6, ns: 1e9 };
const NAME = /(date|time|timestamp|(^|_)(ts|at|on)$|day|when)/i;
const LO_YEAR_S = -2208988800; // 1900-01-01
const HI_YEAR_S = 7258118400; // 2200-01-01

export const UNIT_LABEL = { s: "seconds", ms: "milliseconds", us: "microseconds", ns: "nanoseconds" };

/** "s" | "ms" | "us" | "ns" | null for a column, from its name and footer min/max (bigints). */
export function guessTimeUnit(name, type, min, max) {
  if (type !== "int64" || typeof min !== "bigint" || typeof max !== "bigint" || !NAME.test(name)) return null;
  const mag = Number(max < 0n ? -max : max) > Number(min < 0n ? -min : min) ? Number(max < 0n ? -max : max) : Number(min < 0n ? -min : min);
  const unit = mag >= 1e17 ? "ns" : mag >= 1e14 ? "us" : mag >= 1e11 ? "ms" : mag >= 1e8 ? "s" : null;
  if (!unit) return null;
  const inRange = (v) => {
    const sec = Number(v) / PER_SECOND[unit];
    return sec >= LO_YEAR_S && sec < HI_YEAR_S;
  };
  return inRange(min) && inRange(max) ? unit : null;
}

/** Seconds since the epoch as a Number, for axes. */
export const toSeconds = (v, unit) => Number(v) / PER_SECOND[unit];

const pad = (n, w = 2) => String(n).padStart(w, "0");

/**
 * Milliseconds since 1970 (a bigint) as the parts of a proleptic Gregorian
 * date and time in UTC, worked out in integers: for the points past Date's
 * ±100,000,000 days that 64-bit counts reach (DuckDB's TIMESTAMP goes to
 * the year 294247). Days to a civil date by 400-year eras (146,097 days),
 * each counted from March 1 so the leap day comes last.
 */
function civil(ms) {
  const DAY = 86400000n;
  let days = ms / DAY;
  let rem = ms % DAY;
  if (rem < 0n) {
    rem += DAY;
    days -= 1n;
  }
  const z = days + 719468n; // days from 0000-03-01
  const era = (z >= 0n ? z : z - 146096n) / 146097n;
  const doe = z - era * 146097n; // [0, 146096]
  const yoe = (doe - doe / 1460n + doe / 36524n - doe / 146096n) / 365n; // [0, 399]
  const doy = doe - (365n * yoe + yoe / 4n - yoe / 100n); // [0, 365], from March 1
  const mp = (5n * doy + 2n) / 153n; // March = 0
  const mo = Number(mp < 10n ? mp + 3n : mp - 9n);
  const r = Number(rem);
  return { y: Number(yoe + era * 400n) + (mo <= 2 ? 1 : 0), mo, d: Number(doy - (153n * mp + 2n) / 5n) + 1, h: Math.floor(r / 3600000), mi: Math.floor(r / 60000) % 60, s: Math.floor(r / 1000) % 60, milli: r % 1000 };
}

/** "2001-01-01 00:01:00" (UTC), with a fraction only when there is one. */
export function formatTime(v, unit) {
  const x = BigInt(v);
  let ms;
  let sub = 0n; // units below a millisecond
  if (unit === "s") ms = x * 1000n;
  else if (unit === "ms") ms = x;
  else {
    const f = FACTOR[unit];
    ms = x / f;
    sub = x % f;
    if (sub < 0n) {
      sub += f;
      ms -= 1n;
    }
  }
  const d = new Date(Number(ms));
  const p = Number.isNaN(d.getTime())
    ? civil(ms)
    : { y: d.getUTCFullYear(), mo: d.getUTCMonth() + 1, d: d.getUTCDate(), h: d.getUTCHours(), mi: d.getUTCMinutes(), s: d.getUTCSeconds(), milli: d.getUTCMilliseconds() };
  const date = `${p.y < 0 ? "-" : ""}${pad(Math.abs(p.y), 4)}-${pad(p.mo)}-${pad(p.d)}`;
  const time = `${pad(p.h)}:${pad(p.mi)}:${pad(p.s)}`;
  const milli = p.milli;
  let frac = "";
  if (unit === "us" || unit === "ns") {
    const digits = unit === "us" ? 3 : 6;
    if (milli || sub) frac = `.${pad(milli, 3)}${pad(Number(sub), digits)}`.replace(/0+$/, "");
  } else if (milli) frac = `.${pad(milli, 3)}`.replace(/0+$/, "");
  return `${date} ${time}${frac}`;
}

/** A typed date (2001-03-01, 2001-03-01 12:30, 2001-03-01T12:30:00.5Z) as
 *  a bigint of nanoseconds since 1970 (exact: a column's unit may not hold
 *  it, which its filter must know), or null. */
export function parseTime(text) {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?Z?$/.exec(text.trim());
  if (!m) return null;
  const [y, mo, d, hh, mm, ss] = m.slice(1, 7).map((x) => Number(x || 0));
  // The year set apart (Date.UTC reads 0-99 as 1900-1999), and every part
  // checked after: Date rolls 2001-02-30 over to March 2, a 13th month
  // into the next year, and this text is not a date.
  const at = new Date(Date.UTC(2000, 0, 1, hh, mm, ss));
  at.setUTCFullYear(y, mo - 1, d);
  const ms = at.getTime();
  if (Number.isNaN(ms) || at.getUTCFullYear() !== y || at.getUTCMonth() !== mo - 1 || at.getUTCDate() !== d || at.getUTCHours() !== hh || at.getUTCMinutes() !== mm || at.getUTCSeconds() !== ss) return null;
  const frac = (m[7] || "").padEnd(9, "0"); // nanoseconds below the second
  return BigInt(ms) * 1000000n + BigInt(frac);
}
