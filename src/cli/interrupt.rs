//! Ctrl-C and SIGTERM: the first asks the running batch to stop (it writes what it has finished, marks
//! the rest `interrupted` and exits with [`CODE`]); a second one, or one while no batch listens, exits
//! at once.

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, Once, OnceLock};

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

/// The exit status of an interrupted run: 128 + SIGINT, what a shell reports for Ctrl-C.
pub const CODE: i32 = 130;

/// Nothing listens: a signal ends the process at once.
const IDLE: u8 = 0;
/// A batch listens: the first signal asks it to stop.
const LISTENING: u8 = 1;
/// A signal asked the batch to stop; the next one ends the process at once.
const REQUESTED: u8 = 2;

static STATE: AtomicU8 = AtomicU8::new(IDLE);

/// Whether the first signal is answered on standard error (not under `-q`).
static SAY: AtomicBool = AtomicBool::new(true);

/// What to do before an immediate exit (clear a progress line).
type Cleanup = Box<dyn Fn() + Send>;

static CLEANUPS: Mutex<Vec<Cleanup>> = Mutex::new(Vec::new());

/// A batch listening for interrupts, until dropped.
pub struct Listening(());

impl Drop for Listening {
    fn drop(&mut self) {
        let _ = STATE.compare_exchange(LISTENING, IDLE, Ordering::SeqCst, Ordering::SeqCst);
    }
}

/// Makes the first Ctrl-C or SIGTERM from now on a request to stop ([`requested`]), which the
/// caller must check for, instead of the end of the process; unless `quiet`, it is answered on
/// standard error at once (with how to stop at once).
pub fn listen(quiet: bool) -> Listening {
    SAY.store(!quiet, Ordering::SeqCst);
    install();
    let _ = STATE.compare_exchange(IDLE, LISTENING, Ordering::SeqCst, Ordering::SeqCst);
    Listening(())
}

/// The flag the first signal sets, for solves to watch ([`satdoku::stop_when`]): a batch that
/// solves on its reading thread stops the solve in hand with it.
pub fn stop_flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    Arc::clone(FLAG.get_or_init(Arc::default))
}

/// Whether a signal asked the listening batch to stop.
pub fn requested() -> bool {
    STATE.load(Ordering::SeqCst) == REQUESTED
}

/// Runs `f` before the process is ended at once by a signal (it must not wait on a lock).
pub fn on_exit(f: impl Fn() + Send + 'static) {
    if let Ok(mut c) = CLEANUPS.lock() {
        c.push(Box::new(f));
    }
}

/// Ends the process now with [`CODE`], after the [`on_exit`] clean-ups that can run.
fn exit_now() -> ! {
    if let Ok(c) = CLEANUPS.try_lock() {
        c.iter().for_each(|f| f());
    }
    std::process::exit(CODE)
}

/// Starts the thread that receives the signals (once per process; a process that never listens keeps
/// the default handling).
fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let Ok(mut signals) = Signals::new([SIGINT, SIGTERM]) else {
            return;
        };
        let _ = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                for _ in signals.forever() {
                    let first = STATE.compare_exchange(
                        LISTENING,
                        REQUESTED,
                        Ordering::SeqCst,
                        Ordering::SeqCst,
                    );
                    if first.is_err() {
                        exit_now();
                    }
                    stop_flag().store(true, Ordering::SeqCst);
                    if SAY.load(Ordering::SeqCst) {
                        let _ = writeln!(
                            std::io::stderr(),
                            "satdoku: interrupted: writing what is finished (again to stop at once)"
                        );
                    }
                }
            });
    });
}
