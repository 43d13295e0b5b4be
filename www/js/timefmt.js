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
  const msN = Number(ms);
  const d = new Date(msN);
  if (Number.isNaN(d.getTime())) return String(v);
  const y = d.getUTCFullYear();
  const date = `${y < 0 ? "-" : ""}${pad(Math.abs(y), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const milli = d.getUTCMilliseconds();
  let frac = "";
  if (unit === "us" || unit === "ns") {
    const digits = unit === "us" ? 3 : 6;
    if (milli || sub) frac = `.${pad(milli, 3)}${pad(Number(sub), digits)}`.replace(/0+$/, "");
  } else if (milli) frac = `.${pad(milli, 3)}`.replace(/0+$/, "");
  return `${date} ${time}${frac}`;
}

/** A typed date (2001-03-01, 2001-03-01 12:30, 2001-03-01T12:30:00.5Z) as a bigint in `unit`, or null. */
export function parseTime(text, unit) {
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
  const ns = BigInt(ms) * 1000000n + BigInt(frac);
  return unit === "s" ? ns / 1000000000n : unit === "ms" ? ns / 1000000n : unit === "us" ? ns / 1000n : ns;
}
