//! The Elo difference that a match score implies, with its error margin.

/// A match result from the first engine's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first engine won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the first engine lost.
    pub losses: u32,
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The first engine's score, from 0 to 1 (`None` before any game).
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(n))
    }

    /// The Elo difference (first engine minus second) and the half-width of its 95% interval,
    /// from the score and its spread over wins, draws and losses. Infinite when one side
    /// scored everything.
    ///
    /// ```
    /// use morris_engine::arena::Tally;
    /// let t = Tally { wins: 30, draws: 40, losses: 30 };
    /// let (elo, margin) = t.elo().unwrap();
    /// assert!(elo.abs() < 1e-9);
    /// assert!(margin > 40.0 && margin < 60.0, "{margin}");
    /// ```
    pub fn elo(&self) -> Option<(f64, f64)> {
        let s = self.score()?;
        let n = f64::from(self.games());
        let (w, d, l) = (
            f64::from(self.wins) / n,
            f64::from(self.draws) / n,
            f64::from(self.losses) / n,
        );
        let variance = w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2);
        let sigma = (variance / n).sqrt();
        let low = elo_of(s - 1.96 * sigma);
        let high = elo_of(s + 1.96 * sigma);
        Some((elo_of(s), (high - low) / 2.0))
    }
}

/// The Elo difference of an expected score.
pub fn elo_of(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_differences() {
        assert!((elo_of(0.75) - 190.85).abs() < 0.01);
        assert!((elo_of(0.5)).abs() < 1e-9);
        let t = Tally {
            wins: 10,
            draws: 0,
            losses: 0,
        };
        assert_eq!(t.elo().unwrap().0, f64::INFINITY);
        assert_eq!(Tally::default().elo(), None);
    }
}
