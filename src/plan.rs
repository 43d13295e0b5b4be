//! Which byte ranges a read needs from a source, and how they become
//! requests: ranges at most a small gap apart merge into one request up to
//! a cap, and a window bounds how many bytes are requested but not yet
//! consumed.
//!
//! Pure: no I/O. The wasm layer turns each [`Request`] into one `slice()`
//! of a Blob or an `AsyncBuffer`, and consults a [`Window`] before starting
//! the next one.
//!
//! Bounds, with the defaults:
//! - a request is at most [`MAX_REQUEST`] (32 MiB) long, unless it is one
//!   wanted range that is longer by itself (a large chunk is fetched alone,
//!   never split: decoding needs all of it);
//! - the bytes of requests started and not yet consumed stay within
//!   [`MAX_IN_FLIGHT`] (64 MiB) and [`MAX_REQUESTS_IN_FLIGHT`] requests,
//!   except that one request may always start when none is in flight.
//!   So what a read holds of fetched bytes at once is at most
//!   `max(MAX_IN_FLIGHT, the largest wanted range)`.
//! - a gap between two wanted ranges is fetched when it is at most
//!   [`MAX_GAP`] (8 KiB), so the bytes fetched exceed the bytes wanted by at
//!   most that per request saved; a longer gap is never fetched.

use core::ops::Range;

use crate::file::{head_probe_range, HEAD_PROBE_LEN, TAIL_LEN};

/// The longest request made for several ranges together (hyparquet uses
/// the same 32 MB for its merged column-chunk requests).
pub const MAX_REQUEST: u64 = 32 << 20;

/// The longest gap read between two wanted ranges so that they share a
/// request (Arrow's `ReadRangeCache` holes default to the same 8 KiB). A
/// request costs more than that in bytes: about 0.5 ms from a Blob in
/// Chromium, a round trip over HTTP. The chunk headers of many small
/// chunks, or one column of many small row groups, so cost a few requests
/// rather than one a range, while a request reads at most 8 KiB a range
/// more than it wants.
pub const MAX_GAP: u64 = 8 << 10;

/// The first range an open reads beside the tail: the head probe, or the
/// whole file when it is so short that the probe and the tail lie at most
/// [`MAX_GAP`] apart (they would share a request), so that its header and
/// footer come with it and the open needs no second read.
pub fn open_head(file_len: u64) -> Range<u64> {
    if file_len <= HEAD_PROBE_LEN + MAX_GAP + TAIL_LEN {
        0..file_len
    } else {
        head_probe_range(file_len)
    }
}

/// Bytes requested but not yet consumed, at most (two full requests, so
/// one can arrive while the other is decoded).
pub const MAX_IN_FLIGHT: u64 = 64 << 20;

/// Requests started but not yet consumed, at most: many small ranges
/// (chunk headers, one column over many row groups) do not become
/// thousands of concurrent `slice()` calls.
pub const MAX_REQUESTS_IN_FLIGHT: usize = 8;

/// One request to a source: a byte range, and which of the wanted ranges
/// (indices into the slice given to [`requests`]) it serves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub range: Range<u64>,
    pub parts: Range<usize>,
}

impl Request {
    pub fn len(&self) -> u64 {
        self.range.end - self.range.start
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Groups wanted ranges, in the order given, into requests: a range joins
/// the previous request when it starts inside it or at most [`MAX_GAP`]
/// bytes after its end, and the merged request stays within `max_request`
/// bytes. Callers give ranges in file order so neighbours merge; any order
/// is served correctly, only merged less. Lazy: each request is made when asked for,
/// so planning a read of a million chunks allocates nothing.
pub fn requests(wanted: &[Range<u64>], max_request: u64) -> Requests<'_> {
    Requests { wanted, next: 0, max_request }
}

/// The requests of [`requests`], in order.
#[derive(Clone, Debug)]
pub struct Requests<'a> {
    wanted: &'a [Range<u64>],
    next: usize,
    max_request: u64,
}

impl Iterator for Requests<'_> {
    type Item = Request;

    fn next(&mut self) -> Option<Request> {
        let first = self.wanted.get(self.next)?;
        let mut q = Request { range: first.start..first.end.max(first.start), parts: self.next..self.next + 1 };
        for r in &self.wanted[self.next + 1..] {
            let end = q.range.end.max(r.end);
            if !(r.start >= q.range.start
                && r.start <= q.range.end.saturating_add(MAX_GAP)
                && end - q.range.start <= self.max_request)
            {
                break;
            }
            q.range.end = end;
            q.parts.end += 1;
        }
        self.next = q.parts.end;
        Some(q)
    }
}

/// The requests in flight: how many, and how many bytes.
#[derive(Clone, Debug)]
pub struct Window {
    max_bytes: u64,
    max_requests: usize,
    bytes: u64,
    requests: usize,
}

impl Default for Window {
    fn default() -> Self {
        Window::new(MAX_IN_FLIGHT, MAX_REQUESTS_IN_FLIGHT)
    }
}

impl Window {
    pub fn new(max_bytes: u64, max_requests: usize) -> Self {
        Window { max_bytes, max_requests, bytes: 0, requests: 0 }
    }

    /// Whether a request of `len` bytes may start now; if so it is counted
    /// as in flight until [`Window::done`]. An empty window always admits
    /// one request, however large, so every read makes progress.
    pub fn admit(&mut self, len: u64) -> bool {
        let fits = self.requests < self.max_requests && self.bytes.saturating_add(len) <= self.max_bytes;
        if self.requests == 0 || fits {
            self.bytes = self.bytes.saturating_add(len);
            self.requests += 1;
            return true;
        }
        false
    }

    /// A request of `len` bytes was consumed (its bytes are no longer held).
    pub fn done(&mut self, len: u64) {
        self.bytes = self.bytes.saturating_sub(len);
        self.requests = self.requests.saturating_sub(1);
    }

    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    pub fn requests(&self) -> usize {
        self.requests
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: u64 = 1 << 20;

    fn plan(ranges: &[(u64, u64)], cap: u64) -> Vec<((u64, u64), (usize, usize))> {
        let rs: Vec<Range<u64>> = ranges.iter().map(|&(s, e)| s..e).collect();
        requests(&rs, cap).map(|r| ((r.range.start, r.range.end), (r.parts.start, r.parts.end))).collect()
    }

    /// Every wanted range lies inside the request that serves it, and a
    /// request's bytes are its ranges' and gaps of at most `MAX_GAP`.
    fn check_cover(ranges: &[Range<u64>], reqs: &[Request], cap: u64) {
        let mut next = 0;
        for q in reqs {
            assert_eq!(q.parts.start, next, "parts are consecutive");
            next = q.parts.end;
            assert!(!q.parts.is_empty());
            for r in &ranges[q.parts.clone()] {
                assert!(q.range.start <= r.start && r.end <= q.range.end, "{r:?} outside {q:?}");
            }
            let longest = ranges[q.parts.clone()].iter().map(|r| r.end - r.start).max().unwrap_or(0);
            assert!(q.len() <= cap.max(longest), "{q:?} is over the cap");
            let mut reach = q.range.start;
            for r in &ranges[q.parts.clone()] {
                assert!(r.start <= reach + MAX_GAP, "a gap over MAX_GAP fetched: {r:?} in {q:?}");
                reach = reach.max(r.end);
            }
            assert_eq!(reach, q.range.end, "bytes fetched after the last range");
        }
        assert_eq!(next, ranges.len());
    }

    #[test]
    fn adjacent_ranges_and_short_gaps_merge_and_long_gaps_do_not() {
        assert_eq!(plan(&[(10, 20), (20, 30), (30, 35)], MAX_REQUEST), vec![((10, 35), (0, 3))]);
        assert_eq!(plan(&[(10, 20), (21, 30)], MAX_REQUEST), vec![((10, 30), (0, 2))]);
        // A gap of exactly MAX_GAP is read; one byte more is not.
        let g = MAX_GAP;
        assert_eq!(plan(&[(0, 10), (10 + g, 20 + g)], MAX_REQUEST), vec![((0, 20 + g), (0, 2))]);
        assert_eq!(
            plan(&[(0, 10), (11 + g, 20 + g)], MAX_REQUEST),
            vec![((0, 10), (0, 1)), ((11 + g, 20 + g), (1, 2))]
        );
        // The gap is measured from the furthest end so far, not the last range's.
        assert_eq!(plan(&[(0, 100), (10, 20), (100 + g, 200 + g)], MAX_REQUEST), vec![((0, 200 + g), (0, 3))]);
        assert_eq!(plan(&[], MAX_REQUEST), vec![]);
    }

    #[test]
    fn chunk_headers_of_small_chunks_are_a_few_requests() {
        // 20,000 chunks of 100 bytes, an 18-byte header read from each: one
        // request per 32 MiB, where each header was a request of its own.
        let ranges: Vec<Range<u64>> = (0..20_000u64).map(|i| 5 + i * 100..5 + i * 100 + 18).collect();
        let reqs: Vec<Request> = requests(&ranges, MAX_REQUEST).collect();
        check_cover(&ranges, &reqs, MAX_REQUEST);
        assert_eq!(reqs, vec![Request { range: 5..5 + 19_999 * 100 + 18, parts: 0..20_000 }]);
        // Chunks of 1 MiB: each header stays a request of 18 bytes.
        let ranges: Vec<Range<u64>> = (0..50u64).map(|i| i * MIB..i * MIB + 18).collect();
        assert!(requests(&ranges, MAX_REQUEST).all(|q| q.len() == 18));
    }

    #[test]
    fn an_open_reads_a_short_file_whole_and_a_longer_ones_head_probe() {
        let edge = HEAD_PROBE_LEN + MAX_GAP + TAIL_LEN;
        assert_eq!(open_head(0), 0..0);
        assert_eq!(open_head(edge), 0..edge);
        assert_eq!(open_head(edge + 1), 0..HEAD_PROBE_LEN);
        assert_eq!(open_head(6 << 30), 0..HEAD_PROBE_LEN);
        // Just short enough: the probe and the tail merge into the whole file.
        let reqs: Vec<Request> = requests(&[open_head(edge), edge - TAIL_LEN..edge], MAX_REQUEST).collect();
        assert_eq!(reqs, vec![Request { range: 0..edge, parts: 0..2 }]);
    }

    #[test]
    fn overlapping_ranges_share_a_request() {
        // An open's head probe and tail overlap in a 12-byte file.
        assert_eq!(plan(&[(0, 9), (4, 12)], MAX_REQUEST), vec![((0, 12), (0, 2))]);
        assert_eq!(plan(&[(0, 18), (0, 18)], MAX_REQUEST), vec![((0, 18), (0, 2))]);
        // A range inside the previous one does not shrink it.
        assert_eq!(plan(&[(0, 100), (10, 20)], MAX_REQUEST), vec![((0, 100), (0, 2))]);
    }

    #[test]
    fn merged_requests_stop_at_the_cap() {
        // Eleven adjacent 10 MiB chunks: three per request (30 MiB), then two.
        let ranges: Vec<(u64, u64)> = (0..11).map(|i| (5 + i * 10 * MIB, 5 + (i + 1) * 10 * MIB)).collect();
        let got = plan(&ranges, MAX_REQUEST);
        let parts: Vec<(usize, usize)> = got.iter().map(|g| g.1).collect();
        assert_eq!(parts, vec![(0, 3), (3, 6), (6, 9), (9, 11)]);
        assert!(got.iter().all(|((s, e), _)| e - s <= MAX_REQUEST));
        // Exactly at the cap still merges.
        assert_eq!(plan(&[(0, 16 * MIB), (16 * MIB, 32 * MIB)], MAX_REQUEST), vec![((0, 32 * MIB), (0, 2))]);
        assert_eq!(plan(&[(0, 16 * MIB), (16 * MIB, 32 * MIB + 1)], MAX_REQUEST).len(), 2);
    }

    #[test]
    fn a_range_over_the_cap_is_fetched_alone() {
        let big = 100 * MIB;
        let got = plan(&[(0, 10), (10, 10 + big), (10 + big, 20 + big)], MAX_REQUEST);
        assert_eq!(got, vec![((0, 10), (0, 1)), ((10, 10 + big), (1, 2)), ((10 + big, 20 + big), (2, 3))]);
    }

    #[test]
    fn a_whole_6_gib_file_is_many_capped_requests_not_one() {
        // issue 12: readColumnsAsync() on a 6 GiB file asked for one slice(5, 6442450949).
        let chunk = 3 * MIB + 7;
        let n = (6u64 << 30) / chunk;
        let ranges: Vec<Range<u64>> = (0..n).map(|i| 5 + i * chunk..5 + (i + 1) * chunk).collect();
        let reqs: Vec<Request> = requests(&ranges, MAX_REQUEST).collect();
        check_cover(&ranges, &reqs, MAX_REQUEST);
        assert!(reqs.iter().all(|r| r.len() <= MAX_REQUEST));
        assert_eq!(reqs.len() as u64, n.div_ceil(MAX_REQUEST / chunk));
    }

    #[test]
    fn unordered_ranges_are_served_but_not_merged_backwards() {
        let ranges = [20..30, 10..20, 30..40];
        let reqs: Vec<Request> = requests(&ranges, MAX_REQUEST).collect();
        check_cover(&ranges, &reqs, MAX_REQUEST);
        // 10..20 starts before its predecessor: a request of its own, which 30..40 then joins.
        assert_eq!(reqs, vec![Request { range: 20..30, parts: 0..1 }, Request { range: 10..40, parts: 1..3 }]);
    }

    #[test]
    fn seeded_random_plans_cover_exactly_and_respect_the_cap() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..500 {
            let cap = 1 + next() % 200;
            let mut at = next() % 50;
            let ranges: Vec<Range<u64>> = (0..next() % 40)
                .map(|_| {
                    at += if next() % 3 == 0 { next() % 20 } else { 0 };
                    let len = next() % 300;
                    let r = at..at + len;
                    at += len;
                    r
                })
                .collect();
            check_cover(&ranges, &requests(&ranges, cap).collect::<Vec<_>>(), cap);
        }
    }

    #[test]
    fn the_window_bounds_bytes_and_requests_in_flight() {
        let mut w = Window::new(64, 3);
        assert!(w.admit(200), "an empty window admits one request of any size");
        assert!(!w.admit(1));
        w.done(200);
        assert_eq!((w.bytes(), w.requests()), (0, 0));
        assert!(w.admit(30));
        assert!(w.admit(30));
        assert!(!w.admit(5), "64 bytes would be exceeded");
        assert!(w.admit(4));
        assert!(!w.admit(0), "three requests already in flight");
        w.done(30);
        assert!(w.admit(0));
        assert_eq!((w.bytes(), w.requests()), (34, 3));
    }

    #[test]
    fn the_default_window_holds_two_capped_requests() {
        let mut w = Window::default();
        assert!(w.admit(MAX_REQUEST));
        assert!(w.admit(MAX_REQUEST));
        assert!(!w.admit(1));
    }
}
