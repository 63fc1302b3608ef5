//! The computer thinks on its own thread; the screen stays live and takes the answer from a
//! channel when it comes.

use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::thread;
use std::time::{Duration, Instant};

use morris_core::{Game, Ply};

use crate::setup::Engine;

/// What the computer was asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Job {
    /// The ply to play for the side to move.
    Move,
    /// A hint for a person: the best ply and its score.
    Hint,
}

/// An answer of the computer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// The ply chosen, `None` if there was none.
    Move(Option<Ply>),
    /// The best ply with its score in words, `None` if there was none.
    Hint(Option<(Ply, String)>),
}

/// A search running on another thread.
#[derive(Debug)]
pub struct Thinking {
    job: Job,
    started: Instant,
    answer: Receiver<Answer>,
}

impl Thinking {
    /// Starts the engine on a copy of `game`, on a thread of its own.
    pub fn start(
        engine: Engine,
        job: Job,
        game: &Game,
        level: u8,
        time: Duration,
        seed: u64,
    ) -> Thinking {
        let (send, answer) = mpsc::channel();
        let game = game.clone();
        // If no thread can be started the sender is dropped, and `poll` reports no answer.
        let _ = thread::Builder::new()
            .name("morris-search".into())
            .spawn(move || {
                let answer = match job {
                    Job::Move => Answer::Move((engine.best_ply)(&game, level, time, seed)),
                    Job::Hint => Answer::Hint((engine.analyse)(&game, time).into_iter().next()),
                };
                // The app may have moved on and dropped the receiver: nothing to tell then.
                let _ = send.send(answer);
            });
        Thinking {
            job,
            started: Instant::now(),
            answer,
        }
    }

    /// What was asked.
    pub fn job(&self) -> Job {
        self.job
    }

    /// How long the computer has been thinking.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// The answer, if it has come. A search that ended without answering (its thread could not
    /// start, or failed) answers that it found nothing.
    pub fn poll(&self) -> Option<Answer> {
        match self.answer.try_recv() {
            Ok(answer) => Some(answer),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(match self.job {
                Job::Move => Answer::Move(None),
                Job::Hint => Answer::Hint(None),
            }),
        }
    }

    /// Waits for the answer; a search that ended without answering found nothing.
    pub fn wait(self) -> Answer {
        self.answer.recv().unwrap_or(match self.job {
            Job::Move => Answer::Move(None),
            Job::Hint => Answer::Hint(None),
        })
    }
}
