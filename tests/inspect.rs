//! Footer statistics recomputed from decoded values agree with what the
//! reference writer stored, except where FORMAT.md documents its bytes bug.

mod common;

use columns_wasm::inspect::{inspect_chunk, EncodingDetail};
use columns_wasm::{ColumnType, FileMeta};

#[test]
fn decoded_statistics_agree_with_the_footer_except_the_known_bytes_bug() {
    let corpus = common::corpus();
    let registry = common::conformance::load_tokenizers(&corpus.join("tokenizers"));
    let (pairs, _) = common::conformance::find_pairs(&corpus.join("valid"));
    let (mut checked, mut bytes_disagreements) = (0, 0);
    for path in pairs {
        let bytes = std::fs::read(&path).unwrap();
        let meta = FileMeta::from_bytes(&bytes).unwrap();
        for g in 0..meta.row_groups.len() {
            for c in 0..meta.schema.len() {
                let chunk = meta.chunk_bytes(&bytes, g, c).unwrap();
                let r = inspect_chunk(&meta, g, c, chunk, &registry).unwrap();
                assert!(r.error.is_none(), "{}: rg {g} col {c}: {:?}", path.display(), r.error);
                assert!(r.detail.is_some());
                let disagree: Vec<_> = r.checks.iter().filter(|k| !k.agrees).map(|k| k.field).collect();
                if meta.schema[c].ty == ColumnType::Bytes {
                    bytes_disagreements += !disagree.is_empty() as usize;
                } else {
                    assert!(
                        disagree.is_empty(),
                        "{}: rg {g} col {c} ({}): {disagree:?}",
                        path.display(),
                        meta.schema[c].ty
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 500, "only {checked} chunks inspected");
    assert!(bytes_disagreements > 0, "the edge_bytes writer bug should be flagged somewhere");
}

#[test]
fn encoding_details_describe_the_stream() {
    let corpus = common::corpus();
    let registry = common::conformance::load_tokenizers(&corpus.join("tokenizers"));
    let bytes = std::fs::read(corpus.join("valid/tokenized_bits_counts.cols")).unwrap();
    let meta = FileMeta::from_bytes(&bytes).unwrap();
    let r = inspect_chunk(&meta, 0, 1, meta.chunk_bytes(&bytes, 0, 1).unwrap(), &registry).unwrap();
    match r.detail {
        Some(EncodingDetail::Tokenized { representation, boundaries, values, tokens, bits_width, .. }) => {
            assert_eq!((representation, boundaries), ("Bits", "Counts"));
            assert_eq!(values, 400 - meta.row_groups[0].chunks[1].null_count as usize);
            assert!(tokens > values);
            assert_eq!(bits_width, Some(16), "GPT-2 ids up to 50256 need 16 bits");
        }
        other => panic!("expected a tokenized detail, got {other:?}"),
    }
}

#[test]
fn inspection_reports_a_fault_at_the_file_offset_a_read_reports() {
    let corpus = common::corpus();
    let registry = columns_wasm::Registry::default();
    // A Flate chunk whose first block starts with an invalid DEFLATE block
    // type (BTYPE 11): the fault is in that block, at its place in the file.
    let mut bytes = std::fs::read(corpus.join("valid/enc_plain_flate.cols")).unwrap();
    let meta = FileMeta::from_bytes(&bytes).unwrap();
    let cm = &meta.row_groups[0].chunks[0];
    let clean = inspect_chunk(&meta, 0, 0, meta.chunk_bytes(&bytes, 0, 0).unwrap(), &registry).unwrap();
    let block_at = cm.offset + clean.blocks[0].offset as u64;
    bytes[block_at as usize] = 0x07;
    let chunk = meta.chunk_bytes(&bytes, 0, 0).unwrap();
    let read = columns_wasm::read_column(&meta, 0, 0, chunk, &registry).unwrap_err();
    let inspected = inspect_chunk(&meta, 0, 0, chunk, &registry).unwrap().error.expect("a fault");
    assert_eq!(read.location.offset, Some(block_at), "{read}");
    assert_eq!(inspected.location, read.location, "{inspected}");

    // A chunk whose header is refused: inspection fails where the read does.
    let bytes = std::fs::read(corpus.join("invalid/chunk_no_blocks.cols")).unwrap();
    let meta = FileMeta::from_bytes(&bytes).unwrap();
    let (read, inspected) = (0..meta.schema.len())
        .find_map(|c| {
            let chunk = meta.chunk_bytes(&bytes, 0, c).unwrap();
            let read = columns_wasm::read_column(&meta, 0, c, chunk, &registry).err()?;
            Some((read, inspect_chunk(&meta, 0, c, chunk, &registry).unwrap_err()))
        })
        .expect("a chunk with no blocks");
    assert!(read.location.offset.unwrap() >= meta.row_groups[0].chunks[0].offset, "{read}");
    assert_eq!(inspected.location, read.location, "{inspected}");
}
