//! One thread pool for the work quiver splits over threads (compressing and decompressing the
//! buffers of a message, decoding the batches of a file).
//!
//! A [`ThreadPool`] is a cheap handle: the process-wide pool (the default), a dedicated pool
//! with a fixed number of threads, or no pool at all (everything on the calling thread).
//! Readers and writers take one in their options; [`ThreadPool::run_jobs`] is the one way
//! work is split: the calling thread always takes part, helpers come from the pool (whose
//! threads are started once and sleep between calls, never spawned per call nor spinning),
//! and the result does not depend on how many threads ran.
//!
//! ```
//! use quiver_arrow::parallel::ThreadPool;
//! // The length of each word, the longest words handed out first.
//! let words = vec!["columnar", "arrow", "ipc"];
//! let pool = ThreadPool::new(2)?;
//! let lengths = pool.run_jobs(words, || |w: &str| Ok::<_, ()>(w.len()), || ()).unwrap();
//! assert_eq!(lengths, [8, 5, 3]);
//! # Ok::<(), quiver_arrow::Error>(())
//! ```

mod pool;

use crate::{Error, Result};
use pool::Pool;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// Where [`ThreadPool::run_jobs`] finds its helper threads.
///
/// Cloning is cheap (at most a reference count). Two handles are equal when they name the
/// same pool: [`ThreadPool::global`] equals itself, [`ThreadPool::sequential`] equals itself,
/// and a pool from [`ThreadPool::new`] equals only its clones.
///
/// ```
/// use quiver_arrow::parallel::ThreadPool;
/// let pool = ThreadPool::new(3)?;
/// assert_eq!(pool.threads(), 3);
/// assert_eq!(pool, pool.clone());
/// assert_ne!(pool, ThreadPool::new(3)?);
/// assert_eq!(ThreadPool::sequential().threads(), 1);
/// assert_eq!(ThreadPool::default(), ThreadPool::global());
/// # Ok::<(), quiver_arrow::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct ThreadPool(Kind);

#[derive(Clone, Debug, Default)]
enum Kind {
    /// The process-wide pool.
    #[default]
    Global,
    /// A pool of its own.
    Dedicated(Arc<Pool>),
    /// No helpers: everything runs on the calling thread.
    Sequential,
}

impl PartialEq for ThreadPool {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Kind::Global, Kind::Global) | (Kind::Sequential, Kind::Sequential) => true,
            (Kind::Dedicated(a), Kind::Dedicated(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl Eq for ThreadPool {}

impl ThreadPool {
    /// The pool the whole process shares: one thread per core
    /// ([`std::thread::available_parallelism`]), the calling thread of
    /// [`ThreadPool::run_jobs`] counting as one, so the pool itself has one thread fewer.
    /// Its threads are started on first use (as many as can be).
    pub fn global() -> Self {
        ThreadPool(Kind::Global)
    }

    /// A dedicated pool of `threads` threads, the calling thread of [`ThreadPool::run_jobs`]
    /// counting as one: `threads - 1` threads are started here, and stop when the last clone
    /// of the pool is dropped.
    ///
    /// An error when `threads` is 0 or a thread cannot be started.
    pub fn new(threads: usize) -> Result<Self> {
        if threads == 0 {
            return Err(Error::invalid("a thread pool needs at least one thread"));
        }
        match Pool::start(threads) {
            (pool, None) => Ok(ThreadPool(Kind::Dedicated(Arc::new(pool)))),
            (_, Some(e)) => Err(Error::from(e)),
        }
    }

    /// No pool: [`ThreadPool::run_jobs`] runs everything on the calling thread.
    pub fn sequential() -> Self {
        ThreadPool(Kind::Sequential)
    }

    /// How many threads [`ThreadPool::run_jobs`] may use, the calling thread included.
    pub fn threads(&self) -> usize {
        self.pool().map_or(1, Pool::threads)
    }

    /// The helper threads, `None` for [`ThreadPool::sequential`].
    fn pool(&self) -> Option<&Pool> {
        match &self.0 {
            Kind::Global => Some(global_pool()),
            Kind::Dedicated(pool) => Some(pool),
            Kind::Sequential => None,
        }
    }

    /// Whether this is [`ThreadPool::sequential`].
    pub fn is_sequential(&self) -> bool {
        matches!(self.0, Kind::Sequential)
    }

    /// Runs `jobs` on the calling thread and up to [`ThreadPool::threads`]` - 1` threads of
    /// the pool, and returns their results in the order of `jobs`.
    ///
    /// - Jobs are handed out in the order given, one at a time from a shared counter, to
    ///   whichever thread is free: give the largest first so that no thread is left with a
    ///   big job at the end.
    /// - Each thread that takes part makes its own worker with `worker` (for per-thread
    ///   state such as a codec context) and runs its jobs with it.
    /// - `before` runs exactly once, on the calling thread, while the helpers start on the
    ///   jobs (the calling thread joins them afterwards); it runs also when a job fails.
    /// - After a job fails no further jobs are handed out, and the error returned is that of
    ///   the failing job that comes first in `jobs`. Every job before it has run, so which
    ///   error is returned does not depend on the number of threads.
    ///
    /// The call returns when every helper that took part is done. Helpers that are busy
    /// elsewhere (all of them, when this is called from a job of the same pool) are not
    /// waited for: the jobs then run on the threads that are free, at worst the calling one
    /// alone, so calls never deadlock. A panic in a job is propagated once the helpers are
    /// done.
    ///
    /// ```
    /// use quiver_arrow::parallel::ThreadPool;
    /// let pool = ThreadPool::new(3)?;
    /// // Job 2 and job 4 fail: the error is job 2's, whatever the thread count.
    /// let jobs: Vec<u32> = (0..6).collect();
    /// let mut before = 0;
    /// let r = pool.run_jobs(
    ///     jobs,
    ///     || |j: u32| if j % 2 == 0 && j > 0 { Err(format!("job {j}")) } else { Ok(j * 10) },
    ///     || before += 1,
    /// );
    /// assert_eq!(r, Err("job 2".to_string()));
    /// assert_eq!(before, 1);
    /// # Ok::<(), quiver_arrow::Error>(())
    /// ```
    pub fn run_jobs<J, R, E, W>(
        &self,
        jobs: Vec<J>,
        worker: impl Fn() -> W + Sync,
        before: impl FnOnce(),
    ) -> Result<Vec<R>, E>
    where
        J: Send,
        R: Send,
        E: Send,
        W: FnMut(J) -> Result<R, E>,
    {
        let helpers = self.threads().min(jobs.len()).saturating_sub(1);
        let Some(pool) = self.pool().filter(|_| helpers > 0) else {
            before();
            return jobs.into_iter().map(worker()).collect();
        };
        let queue = Queue::new(jobs);
        let work = || queue.drain(worker());
        pool.run(helpers, &work, before);
        queue.into_results()
    }
}

/// The process-wide pool behind [`ThreadPool::global`].
fn global_pool() -> &'static Pool {
    static GLOBAL: OnceLock<Pool> = OnceLock::new();
    GLOBAL.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        // Threads that cannot be started leave their share to the others.
        Pool::start(cores).0
    })
}

/// One job of [`ThreadPool::run_jobs`] as it goes from waiting to done.
enum Slot<J, R, E> {
    Waiting(J),
    Running,
    Done(Result<R, E>),
}

/// The jobs of one [`ThreadPool::run_jobs`] call and their results.
struct Queue<J, R, E> {
    slots: Vec<Mutex<Slot<J, R, E>>>,
    /// The next job to hand out (`slots.len()` or more: none left).
    next: AtomicUsize,
}

impl<J, R, E> Queue<J, R, E> {
    fn new(jobs: Vec<J>) -> Self {
        Queue {
            slots: jobs
                .into_iter()
                .map(|j| Mutex::new(Slot::Waiting(j)))
                .collect(),
            next: AtomicUsize::new(0),
        }
    }

    /// Swaps `slot` into job `k`'s place. No lock is held while a job runs, so a poisoned
    /// lock (a panic elsewhere, propagated by the scope) holds a consistent slot.
    fn swap(&self, k: usize, slot: Slot<J, R, E>) -> Slot<J, R, E> {
        let mut s = self.slots[k].lock().unwrap_or_else(PoisonError::into_inner);
        std::mem::replace(&mut *s, slot)
    }

    /// Takes jobs and runs them with `worker` until none are left or one has failed.
    fn drain(&self, mut worker: impl FnMut(J) -> Result<R, E>) {
        loop {
            let k = self.next.fetch_add(1, Ordering::Relaxed);
            if k >= self.slots.len() {
                return;
            }
            let Slot::Waiting(job) = self.swap(k, Slot::Running) else {
                unreachable!("the counter hands out each job once")
            };
            let result = worker(job);
            if result.is_err() {
                self.next.store(self.slots.len(), Ordering::Relaxed);
            }
            self.swap(k, Slot::Done(result));
        }
    }

    /// The results in job order, or the error of the first failing job.
    fn into_results(self) -> Result<Vec<R>, E> {
        let mut out = Vec::with_capacity(self.slots.len());
        for slot in self.slots {
            match slot.into_inner().unwrap_or_else(PoisonError::into_inner) {
                Slot::Done(Ok(r)) => out.push(r),
                Slot::Done(Err(e)) => return Err(e),
                // Jobs are handed out in order and stop only after a failure, so every job
                // before the first failing one is done; a job left running means its thread
                // panicked, and the scope has propagated that panic.
                Slot::Waiting(_) | Slot::Running => {
                    unreachable!("a job before the first failure did not finish")
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests;
