//! A counting allocator: live bytes and the peak since the last `measure`.
//! A test binary that wants it installs it itself,
//! `#[global_allocator] static ALLOC: common::alloc::Counting = common::alloc::Counting;`,
//! so the binaries that only share the rest of `common` keep the system allocator.
//! The counts are process-wide: another test running at the same time in
//! the same binary is counted too.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

pub struct Counting;
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = System.alloc(l);
        if !p.is_null() {
            let now = LIVE.fetch_add(l.size(), Relaxed) + l.size();
            PEAK.fetch_max(now, Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l);
        LIVE.fetch_sub(l.size(), Relaxed);
    }
}

/// Runs `f`; returns its result, the bytes it left allocated and its peak above the start.
pub fn measure<T>(f: impl FnOnce() -> T) -> (T, usize, usize) {
    let before = LIVE.load(Relaxed);
    PEAK.store(before, Relaxed);
    let r = f();
    (r, LIVE.load(Relaxed).saturating_sub(before), PEAK.load(Relaxed) - before)
}
