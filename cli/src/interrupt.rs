//! A signal (SIGINT from Ctrl-C, SIGTERM, SIGHUP) as a request to stop, for a run that can end early and keep
//! what it has (`hunt`): such a run arms it, and the first signal then sets the flag the run watches instead of
//! ending the process. Unarmed, and at a second signal, the process ends as `main` says (temporary outputs
//! removed, exit 128+N).

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

static ARMED: AtomicBool = AtomicBool::new(false);
static STOP: AtomicBool = AtomicBool::new(false);
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// Takes the next signal as a request to stop: the flag returned is set when it comes.
pub fn arm() -> &'static AtomicBool {
    ARMED.store(true, Ordering::SeqCst);
    &STOP
}

/// For the signal thread: true when `signal` was taken as a request to stop (armed, and the first signal).
pub fn take(signal: i32) -> bool {
    if !ARMED.load(Ordering::SeqCst) || SIGNAL.swap(signal, Ordering::SeqCst) != 0 {
        return false;
    }
    STOP.store(true, Ordering::SeqCst);
    true
}

/// The signal taken as a request to stop, if one came.
pub fn caught() -> Option<i32> {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => None,
        n => Some(n),
    }
}
