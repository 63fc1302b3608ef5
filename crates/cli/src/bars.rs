//! Progress bars on standard error for the tablebase library's progress reports: one bar for
//! the step under way and, for a whole build, one for the work overall with the time left.

use std::sync::Mutex;
use std::time::Duration;

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use morris_tablebase::Progress;

/// The bars: the step's and, if asked, the overall one.
#[derive(Debug)]
pub struct Bars {
    multi: MultiProgress,
    overall: Option<ProgressBar>,
    step: Mutex<Option<ProgressBar>>,
}

fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar())
}

impl Bars {
    /// Bars for steps only.
    pub fn new() -> Bars {
        Bars {
            multi: MultiProgress::with_draw_target(ProgressDrawTarget::stderr()),
            overall: None,
            step: Mutex::new(None),
        }
    }

    /// Bars for steps and an overall bar of `total` positions.
    pub fn with_overall(total: u64, label: &str) -> Bars {
        let multi = MultiProgress::with_draw_target(ProgressDrawTarget::stderr());
        let overall = multi.add(ProgressBar::new(total));
        overall.set_style(style(
            "{msg:28} [{elapsed_precise}] {wide_bar} {percent:>3}% (about {eta} left)",
        ));
        overall.set_message(label.to_string());
        overall.enable_steady_tick(Duration::from_secs(1));
        Bars {
            multi,
            overall: Some(overall),
            step: Mutex::new(None),
        }
    }

    /// Counts `n` positions of the whole as done.
    pub fn done(&self, n: u64) {
        if let Some(o) = &self.overall {
            o.inc(n);
        }
    }

    /// Prints a line above the bars.
    pub fn println(&self, line: &str) {
        if self.multi.is_hidden() {
            println!("{line}");
        } else {
            // Falls back to a plain line if the bars cannot print it.
            if self.multi.println(line).is_err() {
                println!("{line}");
            }
        }
    }

    /// Removes every bar.
    pub fn finish(&self) {
        if let Some(o) = &self.overall {
            o.finish_and_clear();
        }
        if let Some(s) = self.step.lock().unwrap_or_else(|e| e.into_inner()).take() {
            s.finish_and_clear();
        }
    }
}

impl Progress for Bars {
    fn begin(&self, task: &str, total: u64) {
        let bar = self.multi.add(ProgressBar::new(total));
        bar.set_style(style(
            "{msg:28} [{elapsed_precise}] {wide_bar} {pos}/{len} ({eta})",
        ));
        bar.set_message(task.to_string());
        if let Some(old) = self
            .step
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .replace(bar)
        {
            old.finish_and_clear();
        }
    }

    fn advance(&self, n: u64) {
        if let Some(bar) = &*self.step.lock().unwrap_or_else(|e| e.into_inner()) {
            bar.inc(n);
        }
    }

    fn rename(&self, task: &str) {
        if let Some(bar) = &*self.step.lock().unwrap_or_else(|e| e.into_inner()) {
            bar.set_message(task.to_string());
        }
    }

    fn end(&self) {
        if let Some(bar) = self.step.lock().unwrap_or_else(|e| e.into_inner()).take() {
            bar.finish_and_clear();
        }
    }
}
