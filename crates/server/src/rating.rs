//! Ratings by Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013), with each
//! rated game its own rating period: a player's rating, deviation and volatility change after
//! every game. A rating whose deviation is still high is provisional.

use serde::Serialize;

/// The rating of a player who has not played: 1500, deviation 350, volatility 0.06.
pub const START: Rating = Rating {
    rating: 1500.0,
    deviation: 350.0,
    volatility: 0.06,
};

/// A rating whose deviation is above this is provisional.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// The system constant τ, which bounds how fast the volatility changes.
const TAU: f64 = 0.5;

/// The factor between the Glicko and the Glicko-2 scales.
const SCALE: f64 = 173.7178;

/// The tolerance of the volatility's iteration.
const EPSILON: f64 = 0.000_001;

/// The lowest deviation a rating keeps, so that it can always move.
const MIN_DEVIATION: f64 = 45.0;

/// A rating on the Glicko scale.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Rating {
    /// The rating, 1500 at the start.
    pub rating: f64,
    /// Its deviation (RD).
    pub deviation: f64,
    /// Its volatility σ.
    pub volatility: f64,
}

impl Rating {
    /// Whether the rating is still provisional.
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }
}

/// One game's result for the player rated: 1 a win, 0.5 a draw, 0 a loss.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Game {
    /// The opponent's rating before the period.
    pub opponent: Rating,
    /// The score.
    pub score: f64,
}

/// A rating before and after a game.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RatingChange {
    /// Before the game.
    pub before: Rating,
    /// After it.
    pub after: Rating,
}

/// The changes of both players' ratings after one game between them; `score` is the first
/// player's (1, 0.5 or 0).
pub fn after_game(first: Rating, second: Rating, score: f64) -> (RatingChange, RatingChange) {
    let one = update(
        first,
        &[Game {
            opponent: second,
            score,
        }],
    );
    let two = update(
        second,
        &[Game {
            opponent: first,
            score: 1.0 - score,
        }],
    );
    (
        RatingChange {
            before: first,
            after: one,
        },
        RatingChange {
            before: second,
            after: two,
        },
    )
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// The rating after a rating period with these games (none: only the deviation grows).
pub fn update(player: Rating, games: &[Game]) -> Rating {
    let mu = (player.rating - 1500.0) / SCALE;
    let phi = player.deviation / SCALE;
    let sigma = player.volatility;
    if games.is_empty() {
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        return Rating {
            deviation: (phi_star * SCALE).min(START.deviation),
            ..player
        };
    }
    let mut v_inv = 0.0;
    let mut sum = 0.0;
    for game in games {
        let mu_j = (game.opponent.rating - 1500.0) / SCALE;
        let phi_j = game.opponent.deviation / SCALE;
        let e = expected(mu, mu_j, phi_j);
        let gj = g(phi_j);
        v_inv += gj * gj * e * (1.0 - e);
        sum += gj * (game.score - e);
    }
    let v = 1.0 / v_inv;
    let delta = v * sum;
    let sigma_next = volatility(phi, sigma, v, delta);
    let phi_star = (phi * phi + sigma_next * sigma_next).sqrt();
    let phi_next = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_next = mu + phi_next * phi_next * sum;
    Rating {
        rating: mu_next * SCALE + 1500.0,
        deviation: (phi_next * SCALE).clamp(MIN_DEVIATION, START.deviation),
        volatility: sigma_next,
    }
}

/// The new volatility: the root of Glickman's f by the Illinois algorithm (step 5).
fn volatility(phi: f64, sigma: f64, v: f64, delta: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (TAU * TAU)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 && k < 1000.0 {
            k += 1.0;
        }
        a - k * TAU
    };
    let mut fa = f(big_a);
    let mut fb = f(big_b);
    // Each step at least halves the bracket in the bad case; 100 steps is far more than the
    // tolerance needs, and bounds the loop on any input.
    for _ in 0..100 {
        if (big_b - big_a).abs() <= EPSILON {
            break;
        }
        let c = big_a + (big_a - big_b) * fa / (fb - fa);
        let fc = f(c);
        if fc * fb <= 0.0 {
            big_a = big_b;
            fa = fb;
        } else {
            fa /= 2.0;
        }
        big_b = c;
        fb = fc;
    }
    let next = (big_a / 2.0).exp();
    if next.is_finite() { next } else { sigma }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    #[test]
    fn glickmans_worked_example() {
        let player = r(1500.0, 200.0);
        let games = [
            Game {
                opponent: r(1400.0, 30.0),
                score: 1.0,
            },
            Game {
                opponent: r(1550.0, 100.0),
                score: 0.0,
            },
            Game {
                opponent: r(1700.0, 300.0),
                score: 0.0,
            },
        ];
        let after = update(player, &games);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn a_win_raises_a_loss_lowers_and_a_period_without_games_widens() {
        let win = update(
            START,
            &[Game {
                opponent: START,
                score: 1.0,
            }],
        );
        let loss = update(
            START,
            &[Game {
                opponent: START,
                score: 0.0,
            }],
        );
        assert!(win.rating > 1500.0 && loss.rating < 1500.0);
        assert!((win.rating - 1500.0 + loss.rating - 1500.0).abs() < 1e-6);
        assert!(win.deviation < START.deviation);
        assert!(win.provisional());
        let settled = r(1800.0, 60.0);
        assert!(!settled.provisional());
        assert!(update(settled, &[]).deviation > 60.0);
    }
}
