// The error kinds that belong to one chunk, not to the file or its source:
// a chunk failing so leaves the other chunks readable (both workers go on
// without it), where a source failing stops the read.
export const CHUNK_KINDS = new Set(["truncated", "corrupt_chunk", "unsupported_codec", "unsupported_encoding", "unknown_tokenizer", "too_large", "out_of_range"]);
