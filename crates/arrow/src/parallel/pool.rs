//! The helper threads behind a [`ThreadPool`](super::ThreadPool): started once, asleep on a
//! condition variable until a call offers them work (never spinning), and back to sleep when
//! it is done.
//!
//! A call ([`Pool::run`]) offers seats at its work to the helpers, runs the work itself, then
//! withdraws the seats no helper took and waits for the helpers that took one. It never waits
//! for a helper that has not started, so a call made while every helper is busy (from inside
//! the pool, or from many threads at once) runs on the calling thread alone instead of
//! blocking.

use std::any::Any;
use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

/// Helper threads and the work offered to them.
pub(super) struct Pool {
    shared: Arc<Shared>,
    /// Threads a call may use: the helpers and the calling thread.
    threads: usize,
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pool")
            .field("threads", &self.threads)
            .finish()
    }
}

/// What the helpers and the calls share.
#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    /// Signalled when work is offered or the pool shuts down.
    wake: Condvar,
}

#[derive(Default)]
struct State {
    offers: VecDeque<Offer>,
    shutdown: bool,
}

/// A seat for one helper at the work of one call.
struct Offer {
    work: Work,
    call: Arc<Call>,
}

/// The work of a call with its borrow's lifetime erased, so that `'static` helper threads can
/// hold it. [`Pool::run`] does not return (nor unwind) before every helper that took it has
/// finished calling it (see [`Finish`]).
#[derive(Clone, Copy)]
struct Work(*const (dyn Fn() + Sync + 'static));

// SAFETY: the closure behind the pointer is `Sync`, so calling it through a shared reference
// from another thread is sound; `Pool::run` keeps it alive while any helper can use it.
unsafe impl Send for Work {}

/// The helpers at work on one call, and the first panic among them.
#[derive(Default)]
struct Call {
    state: Mutex<CallState>,
    /// Signalled when the last helper of the call finishes.
    done: Condvar,
}

#[derive(Default)]
struct CallState {
    running: usize,
    panic: Option<Box<dyn Any + Send>>,
}

/// Locks a mutex whose data stays consistent even if a holder panicked (no code here panics
/// while holding one).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Pool {
    /// Starts up to `threads - 1` helper threads (none for 0 or 1): the pool of those that
    /// started, and the error of the first that could not.
    pub(super) fn start(threads: usize) -> (Self, Option<std::io::Error>) {
        let mut pool = Pool {
            shared: Arc::default(),
            threads: 1,
        };
        for i in 1..threads {
            let shared = pool.shared.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("quiver-pool-{i}"))
                .spawn(move || helper(&shared));
            match spawned {
                Ok(_) => pool.threads += 1,
                Err(e) => return (pool, Some(e)),
            }
        }
        (pool, None)
    }

    /// Threads a call may use: the helpers and the calling thread.
    pub(super) fn threads(&self) -> usize {
        self.threads
    }

    /// Runs `work` on this thread and on up to `helpers` helper threads that are free, and
    /// `before` on this thread first, while the helpers start. Returns once every helper that
    /// took part has returned from `work`; a panic in a helper's `work` is then propagated.
    pub(super) fn run(&self, helpers: usize, work: &(dyn Fn() + Sync), before: impl FnOnce()) {
        let call = Arc::new(Call::default());
        let ptr: *const (dyn Fn() + Sync + '_) = work;
        // SAFETY: only the trait object's lifetime changes. `finish` (whose drop also runs
        // when `before` or `work` panics) withdraws the offers no helper took and waits for
        // the helpers that took one, so no helper calls `work` after this function is left.
        let erased = Work(unsafe {
            std::mem::transmute::<*const (dyn Fn() + Sync + '_), *const (dyn Fn() + Sync)>(ptr)
        });
        {
            let mut state = lock(&self.shared.state);
            let offers = (0..helpers).map(|_| Offer {
                work: erased,
                call: call.clone(),
            });
            state.offers.extend(offers);
        }
        for _ in 0..helpers {
            self.shared.wake.notify_one();
        }
        let finish = Finish {
            shared: &self.shared,
            call: &call,
        };
        before();
        work();
        drop(finish);
        if let Some(panic) = lock(&call.state).panic.take() {
            resume_unwind(panic);
        }
    }
}

impl Drop for Pool {
    /// Stops the helpers (each once it is idle; none is busy, since a call borrows the pool).
    fn drop(&mut self) {
        lock(&self.shared.state).shutdown = true;
        self.shared.wake.notify_all();
    }
}

/// Ends a call: withdraws its offers, then waits for the helpers that took one.
struct Finish<'a> {
    shared: &'a Shared,
    call: &'a Arc<Call>,
}

impl Drop for Finish<'_> {
    fn drop(&mut self) {
        lock(&self.shared.state)
            .offers
            .retain(|o| !Arc::ptr_eq(&o.call, self.call));
        // A helper counts itself in while holding the state lock (see `helper`), so none can
        // join after the withdrawal above.
        let mut state = lock(&self.call.state);
        while state.running > 0 {
            state = self
                .call
                .done
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}

/// A helper thread: takes offers until the pool shuts down.
fn helper(shared: &Shared) {
    while let Some(offer) = next_offer(shared) {
        // SAFETY: the offer was taken (and counted in `running`) before its call withdrew its
        // offers, so the call waits for the `running -= 1` below before its borrow of the
        // work ends.
        let work = unsafe { &*offer.work.0 };
        let outcome = catch_unwind(AssertUnwindSafe(work));
        let mut state = lock(&offer.call.state);
        state.running -= 1;
        if let Err(panic) = outcome {
            state.panic.get_or_insert(panic);
        }
        if state.running == 0 {
            offer.call.done.notify_all();
        }
    }
}

/// Waits for an offer and counts the helper in at its call; `None` once the pool shuts down.
fn next_offer(shared: &Shared) -> Option<Offer> {
    let mut state = lock(&shared.state);
    loop {
        if state.shutdown {
            return None;
        }
        if let Some(offer) = state.offers.pop_front() {
            lock(&offer.call.state).running += 1;
            return Some(offer);
        }
        state = shared
            .wake
            .wait(state)
            .unwrap_or_else(PoisonError::into_inner);
    }
}
