//! Progress of long work, reported through a callback so that the caller decides how to show
//! it (the `morris` binary draws bars).

/// What building or verifying tables reports as it goes: steps, each with a number of units
/// (positions) to do. Calls come from the worker threads, in any order within a step.
pub trait Progress: Send + Sync {
    /// A step of `total` units, named `task`, begins.
    fn begin(&self, task: &str, total: u64);
    /// `n` more units of the current step are done.
    fn advance(&self, n: u64);
    /// The current step is now named `task`.
    fn rename(&self, task: &str) {
        let _ = task;
    }
    /// The current step is over.
    fn end(&self);
}

/// Progress that nobody watches.
#[derive(Debug, Clone, Copy, Default)]
pub struct Silent;

impl Progress for Silent {
    fn begin(&self, _: &str, _: u64) {}
    fn advance(&self, _: u64) {}
    fn end(&self) {}
}

/// One step, ended when dropped.
pub(crate) struct Step<'a>(&'a dyn Progress);

impl<'a> Step<'a> {
    pub(crate) fn new(progress: &'a dyn Progress, total: u64, task: String) -> Step<'a> {
        progress.begin(&task, total);
        Step(progress)
    }

    pub(crate) fn inc(&self, n: u64) {
        self.0.advance(n);
    }

    pub(crate) fn set_message(&self, task: String) {
        self.0.rename(&task);
    }
}

impl Drop for Step<'_> {
    fn drop(&mut self) {
        self.0.end();
    }
}
