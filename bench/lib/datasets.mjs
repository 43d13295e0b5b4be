// The benchmark's files: every columns file, its expected values, and the
// Parquet twins of its data set. A path is relative to the project (the
// in-repo corpus/), or starts with "shared/": ../shared beside the project,
// where the large benchmark files sit (never copied in; tools/serve.mjs
// serves it at /shared/). A data set with a file missing is skipped with a note.
//
// Shapes are facts about the shared files (FORMAT.md section 7, the real
// set's README); every reader's output and every file's own metadata is
// checked against them, and every value against `expected`.

const REAL = "shared/bench/real";
const GPT2 = "corpus/tokenizers/gpt2-tokenizer.json";

/**
 * name        the data set (the Parquet files' stem)
 * rows, columns
 * variants    columns files: variant -> { cols, expected } (paths as above);
 *             expected null: no reference JSON exists (see `reference`)
 * parquet     codecs of NAME.CODEC.parquet beside it
 * real        one of ../shared/bench/real (the set issue 9's goals are stated for)
 * tokenizers  tokenizer files to register (movielens.tokenized: gpt2)
 * reference   for variants without expected JSON: the Parquet file whose
 *             read by hyparquet (an implementation independent of ours, in
 *             Node, untimed) gives the expected values
 */
export const DATASETS = [
  realSet("flights-3m", 3000000, 5, ["default", "optimized"]),
  realSet("birdstrikes", 10000, 14, ["default", "optimized"]),
  realSet("movielens", 100004, 7, ["default", "optimized", "tokenized"], [GPT2]),
  realSet("zipcodes", 42049, 6, ["default", "optimized"]),
  {
    name: "comparison",
    rows: 200000,
    columns: 5,
    variants: { default: { cols: "shared/bench/comparison.cols", expected: null } },
    parquet: { dir: "shared/bench", codecs: ["zstd", "snappy", "none"] },
    real: false,
    tokenizers: [],
    reference: "shared/bench/comparison.zstd.parquet",
  },
  {
    name: "diamonds",
    rows: 53940,
    columns: 10,
    variants: {
      default: { cols: "corpus/real/diamonds.default.cols", expected: "corpus/real/diamonds.default.json.gz" },
      optimized: { cols: "corpus/real/diamonds.optimized.cols", expected: "corpus/real/diamonds.optimized.json.gz" },
    },
    parquet: { dir: "shared/bench", codecs: ["zstd", "snappy", "none"] },
    real: false,
    tokenizers: [],
  },
];

function realSet(name, rows, columns, variants, tokenizers = []) {
  return {
    name,
    rows,
    columns,
    variants: Object.fromEntries(variants.map((v) => [v, { cols: `${REAL}/${name}.${v}.cols`, expected: `${REAL}/${name}.${v}.json.gz` }])),
    parquet: { dir: REAL, codecs: ["zstd", "snappy"] },
    real: true,
    tokenizers,
  };
}

/** Every columns file: { id: "flights-3m.optimized", dataset, variant, cols, expected }. */
export function colsFiles(datasets = DATASETS) {
  return datasets.flatMap((d) => Object.entries(d.variants).map(([variant, v]) => ({ id: `${d.name}.${variant}`, dataset: d, variant, ...v })));
}

/** Every Parquet file: { id: "flights-3m.zstd", dataset, codec, path }. */
export function parquetFiles(datasets = DATASETS) {
  return datasets.flatMap((d) => d.parquet.codecs.map((codec) => ({ id: `${d.name}.${codec}`, dataset: d, codec, path: `${d.parquet.dir}/${d.name}.${codec}.parquet` })));
}

/** The cache file of a columns file's expected fingerprints (bench/data/expected/, made by bench/expected.mjs). */
export const expectedName = (colsFile) => `${colsFile.id}.json`;

/**
 * The FILES knob: a comma-separated list of data set names ("movielens") or
 * columns file ids ("flights-3m.optimized"); empty = everything. Returns the
 * data sets with only the selected variants (their Parquet files stay).
 */
export function selectDatasets(spec) {
  const want = String(spec ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  if (!want.length) return DATASETS;
  const known = new Set([...DATASETS.map((d) => d.name), ...colsFiles().map((f) => f.id)]);
  const unknown = want.filter((w) => !known.has(w));
  if (unknown.length) throw new Error(`FILES: unknown ${unknown.join(", ")} (known: ${[...known].join(", ")})`);
  return DATASETS.map((d) => {
    if (want.includes(d.name)) return d;
    const variants = Object.fromEntries(Object.entries(d.variants).filter(([v]) => want.includes(`${d.name}.${v}`)));
    return Object.keys(variants).length ? { ...d, variants } : null;
  }).filter(Boolean);
}

/** Where a benchmark path is on disk, given the project's directory. */
export const diskPath = (project, rel) => (rel.startsWith("shared/") ? `${project}/../${rel}` : `${project}/${rel}`);
/** Where tools/serve.mjs serves a benchmark path. */
export const urlPath = (rel) => `/${rel}`;

/** Every file a data set's readers need (its tokenizers, columns files, Parquet files). */
export const datasetPaths = (dataset) => [...dataset.tokenizers, ...colsFiles([dataset]).map((f) => f.cols), ...parquetFiles([dataset]).map((p) => p.path)];
