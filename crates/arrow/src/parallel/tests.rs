use super::*;
use std::sync::Barrier;
use std::sync::atomic::AtomicBool;
use std::thread::ThreadId;

/// Every kind of pool, with 1 to 3 threads.
fn pools() -> Vec<ThreadPool> {
    let mut v = vec![ThreadPool::sequential(), ThreadPool::global()];
    v.extend((1..=3).map(|t| ThreadPool::new(t).unwrap()));
    v
}

#[test]
fn results_come_back_in_job_order() {
    for pool in pools() {
        for n in [0, 1, 2, 7, 100] {
            let jobs: Vec<u64> = (0..n).rev().collect();
            let mut before = 0;
            let out = pool
                .run_jobs(jobs.clone(), || |j: u64| Ok::<_, ()>(j * j), || before += 1)
                .unwrap();
            let want: Vec<u64> = jobs.iter().map(|j| j * j).collect();
            assert_eq!(out, want, "{pool:?}, {n} jobs");
            assert_eq!(before, 1, "{pool:?}, {n} jobs");
        }
    }
}

#[test]
fn the_first_failing_job_in_order_is_reported() {
    for pool in pools() {
        for _ in 0..20 {
            let mut before = 0;
            // Jobs 5, 9 and 30 fail; job 5's error wins whichever thread gets there first.
            let r = pool.run_jobs(
                (0..40).collect(),
                || {
                    |j: usize| {
                        if [5, 9, 30].contains(&j) {
                            Err(j)
                        } else {
                            Ok(j)
                        }
                    }
                },
                || before += 1,
            );
            assert_eq!(r, Err(5), "{pool:?}");
            assert_eq!(before, 1);
        }
    }
}

#[test]
fn no_job_is_handed_out_after_a_failure_on_one_thread() {
    let ran = AtomicUsize::new(0);
    let r = ThreadPool::sequential().run_jobs(
        (0..10).collect(),
        || {
            |j: usize| {
                ran.fetch_add(1, Ordering::Relaxed);
                if j == 3 { Err(()) } else { Ok(()) }
            }
        },
        || (),
    );
    assert_eq!(r, Err(()));
    assert_eq!(ran.load(Ordering::Relaxed), 4);
}

#[test]
fn one_worker_per_thread_that_takes_part() {
    // Each worker counts its jobs; the counts add up to the number of jobs.
    let counts = Mutex::new(Vec::new());
    struct Count<'a>(usize, &'a Mutex<Vec<usize>>);
    impl Drop for Count<'_> {
        fn drop(&mut self) {
            self.1.lock().unwrap().push(self.0);
        }
    }
    let pool = ThreadPool::new(3).unwrap();
    pool.run_jobs(
        (0..50).collect(),
        || {
            let mut count = Count(0, &counts);
            move |_: usize| {
                // (Through `&mut`: the closure must own `count`, not only its field.)
                let c = &mut count;
                c.0 += 1;
                Ok::<_, ()>(())
            }
        },
        || (),
    )
    .unwrap();
    let counts = counts.into_inner().unwrap();
    assert!(!counts.is_empty() && counts.len() <= 3, "{counts:?}");
    assert_eq!(counts.iter().sum::<usize>(), 50);
}

#[test]
fn the_calling_thread_takes_part_and_runs_before() {
    // Three jobs that each wait for the other two: they can only finish if three threads
    // run them at once, the calling thread and two of the pool's.
    let pool = ThreadPool::new(3).unwrap();
    let barrier = Barrier::new(3);
    let me = std::thread::current().id();
    let mut before_on = None;
    let ran_on: Vec<ThreadId> = pool
        .run_jobs(
            vec![(); 3],
            || {
                |()| {
                    barrier.wait();
                    Ok::<_, ()>(std::thread::current().id())
                }
            },
            || before_on = Some(std::thread::current().id()),
        )
        .unwrap();
    assert_eq!(before_on, Some(me));
    assert!(ran_on.contains(&me), "{ran_on:?}");
    let mut distinct = ran_on.clone();
    distinct.sort_by_key(|t| format!("{t:?}"));
    distinct.dedup();
    assert_eq!(distinct.len(), 3);
}

#[test]
fn before_runs_while_helpers_work() {
    // `before` waits until a helper has finished a job: it must not hold them back.
    let pool = ThreadPool::new(2).unwrap();
    let helped = AtomicBool::new(false);
    let me = std::thread::current().id();
    let out = pool
        .run_jobs(
            (0..4).collect(),
            || {
                |j: u32| {
                    if std::thread::current().id() != me {
                        helped.store(true, Ordering::Release);
                    }
                    Ok::<_, ()>(j)
                }
            },
            || {
                while !helped.load(Ordering::Acquire) {
                    std::thread::yield_now();
                }
            },
        )
        .unwrap();
    assert_eq!(out, [0, 1, 2, 3]);
}

#[test]
fn before_runs_when_a_job_fails() {
    for pool in pools() {
        let mut before = 0;
        let r = pool.run_jobs(vec![1, 2], || |_: i32| Err::<(), _>("no"), || before += 1);
        assert_eq!(r, Err("no"));
        assert_eq!(before, 1);
    }
}

#[test]
fn nested_calls_do_not_deadlock() {
    // Both threads of a 2-thread pool run outer jobs that themselves split work on the same
    // pool (and on another one) while the pool has no idle thread.
    for inner in [ThreadPool::new(2).unwrap(), ThreadPool::global()] {
        let pool = ThreadPool::new(2).unwrap();
        let out = pool
            .run_jobs(
                (0..6u64).collect(),
                || {
                    |j: u64| {
                        let parts =
                            pool.run_jobs((0..10).collect(), || |k: u64| Ok(j * k), || ())?;
                        let more = inner.run_jobs((0..3).collect(), || |k: u64| Ok(k), || ())?;
                        Ok::<_, ()>(parts.iter().sum::<u64>() + more.iter().sum::<u64>())
                    }
                },
                || (),
            )
            .unwrap();
        let want: Vec<u64> = (0..6).map(|j| j * 45 + 3).collect();
        assert_eq!(out, want);
    }
}

#[test]
fn a_call_does_not_wait_for_busy_helpers() {
    // The only helper of a 2-thread pool is kept busy by another call; a second call then
    // runs on its calling thread alone instead of waiting for the helper.
    let pool = ThreadPool::new(2).unwrap();
    let (started, release) = (Barrier::new(3), Barrier::new(3));
    std::thread::scope(|s| {
        s.spawn(|| {
            let blocked = || {
                |_: u8| {
                    started.wait();
                    release.wait();
                    Ok::<_, ()>(())
                }
            };
            pool.run_jobs(vec![0, 1], blocked, || ()).unwrap();
        });
        // Both jobs have started: one on the spawned thread, one on the helper.
        started.wait();
        let me = std::thread::current().id();
        let on = pool
            .run_jobs(
                vec![(); 5],
                || |()| Ok::<_, ()>(std::thread::current().id()),
                || (),
            )
            .unwrap();
        assert!(on.iter().all(|t| *t == me));
        release.wait();
    });
}

#[test]
#[should_panic(expected = "job 7 panicked")]
fn a_panic_in_a_job_propagates() {
    let pool = ThreadPool::new(2).unwrap();
    let _ = pool.run_jobs(
        (0..20).collect(),
        || {
            |j: usize| {
                assert_ne!(j, 7, "job 7 panicked");
                Ok::<_, ()>(())
            }
        },
        || (),
    );
}

#[test]
fn pools_compare_by_identity() {
    let a = ThreadPool::new(2).unwrap();
    assert_eq!(a, a.clone());
    assert_ne!(a, ThreadPool::new(2).unwrap());
    assert_ne!(a, ThreadPool::global());
    assert_eq!(ThreadPool::global(), ThreadPool::global());
    assert_eq!(ThreadPool::sequential(), ThreadPool::sequential());
    assert_ne!(ThreadPool::sequential(), ThreadPool::global());
    assert!(ThreadPool::sequential().is_sequential());
    assert!(!a.is_sequential());
}

#[test]
fn thread_counts() {
    for t in 1..=3 {
        assert_eq!(ThreadPool::new(t).unwrap().threads(), t);
    }
    assert_eq!(ThreadPool::sequential().threads(), 1);
    assert!(ThreadPool::global().threads() >= 1);
    let e = ThreadPool::new(0).unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid argument: a thread pool needs at least one thread"
    );
}
