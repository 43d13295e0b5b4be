//! A counting allocator: this thread's live bytes, and their peak since the
//! last `measure`. Per thread, so tests running at the same time in one
//! binary do not count each other's allocations (each test has its thread).
//! A test binary that wants it installs it itself,
//! `#[global_allocator] static ALLOC: common::alloc::Counting = common::alloc::Counting;`,
//! so the binaries that only share the rest of `common` keep the system allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

pub struct Counting;
thread_local! {
    // Signed: a block freed on another thread than its own counts there.
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn count(delta: isize) {
    // try_with: nothing to count while the thread's locals are torn down.
    let _ = LIVE.try_with(|live| {
        let now = live.get() + delta;
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = System.alloc(l);
        if !p.is_null() {
            count(l.size() as isize);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l);
        count(-(l.size() as isize));
    }
}

/// Runs `f`; returns its result, the bytes it left allocated and its peak
/// above the start (this thread's).
pub fn measure<T>(f: impl FnOnce() -> T) -> (T, usize, usize) {
    let before = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(before));
    let r = f();
    let (live, peak) = (LIVE.with(Cell::get), PEAK.with(Cell::get));
    (r, (live - before).max(0) as usize, (peak - before) as usize)
}
