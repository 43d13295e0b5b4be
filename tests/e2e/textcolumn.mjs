// A decoded text column as the package hands it over, for tests of the
// page's modules that take one (profile.js, sort.js) without a browser.

const enc = new TextEncoder();

/** values: strings or byte arrays, null for a null row. */
export function textColumn(values) {
  const parts = values.map((v) => (v === null ? new Uint8Array(0) : typeof v === "string" ? enc.encode(v) : v));
  const offsets = new Uint32Array(values.length + 1);
  for (let i = 0; i < parts.length; i++) offsets[i + 1] = offsets[i] + parts[i].length;
  const data = new Uint8Array(offsets[values.length]);
  parts.forEach((p, i) => data.set(p, offsets[i]));
  const validity = new Uint8Array(Math.ceil(values.length / 8));
  values.forEach((v, i) => {
    if (v !== null) validity[i >> 3] |= 1 << (i & 7);
  });
  return { type: "string", length: values.length, validity, values: { offsets, data } };
}
