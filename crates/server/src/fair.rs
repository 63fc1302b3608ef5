//! Which games may change ratings, besides the rules of a game's own life (a side that never
//! played, or fewer than [`MIN_RATED_PLIES`](crate::game_state::MIN_RATED_PLIES) plies, rates
//! nothing): two accounts cannot farm rating from each other.
//!
//! The same two accounts play at most [`MAX_RATED_PAIR`] rated games in
//! [`WINDOW`]; two accounts that come from one network (one IPv4 address or IPv6 /64) at
//! most [`MAX_RATED_SAME_NETWORK`]. Games past these are played all the same, unrated, and
//! say why.

/// The span over which rated games between two accounts are counted: a day, in seconds.
pub const WINDOW: i64 = 24 * 3600;

/// Rated games between the same two accounts within [`WINDOW`].
pub const MAX_RATED_PAIR: u32 = 6;

/// Rated games within [`WINDOW`] between two accounts that came from one network.
pub const MAX_RATED_SAME_NETWORK: u32 = 2;

/// Why a new game between two accounts may not be rated, given the rated games they made
/// within the window (`total`, of which `same_network` from one network) and whether they
/// come from one network now.
pub fn rating_refusal(total: u32, same_network: u32, one_network_now: bool) -> Option<String> {
    if total >= MAX_RATED_PAIR {
        return Some(format!(
            "unrated: these two players have played {MAX_RATED_PAIR} rated games in the last \
             24 hours"
        ));
    }
    if one_network_now && same_network >= MAX_RATED_SAME_NETWORK {
        return Some(format!(
            "unrated: both players are on one network and have played \
             {MAX_RATED_SAME_NETWORK} rated games in the last 24 hours"
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_is_rated_a_few_times_a_day_and_fewer_on_one_network() {
        assert_eq!(rating_refusal(0, 0, true), None);
        assert_eq!(rating_refusal(1, 1, true), None);
        assert!(rating_refusal(2, 2, true).unwrap().contains("one network"));
        // Two players on one network earlier, apart now, are counted as a pair only.
        assert_eq!(rating_refusal(5, 2, false), None);
        assert!(
            rating_refusal(6, 0, false)
                .unwrap()
                .contains("6 rated games")
        );
    }
}
