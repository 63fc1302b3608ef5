//! Games and their plies: a row per game, a row per ply appended as it is played.

use morris_core::{ByColor, Color, Game, Outcome, Position, Reason, Variant};
use rusqlite::{OptionalExtension, params};
use serde::Serialize;

use super::{Store, StoreError, now};
use crate::accounts::PlayerId;
use crate::chat::{Line, MAX_LINES};
use crate::clock::{Clock, Millis, TimeControl};
use crate::game_state::{GameState, PlyTime};
use crate::rating::RatingChange;
use crate::response::Side;
use crate::seat::{GameId, Name, Opponent, Player, TokenHash};

impl Store {
    /// Adds a line to a game's chat (refused once it holds [`MAX_LINES`]).
    ///
    /// # Errors
    ///
    /// SQLite's failures; `Ok(None)` when the chat is full.
    pub async fn add_chat(
        &self,
        game: &GameId,
        side: Color,
        text: String,
        at: Millis,
    ) -> Result<Option<Line>, StoreError> {
        let game = game.clone();
        self.call(move |tx| {
            let n: u32 = tx
                .prepare_cached("SELECT count(*) FROM chat WHERE game = ?1")?
                .query_row([game.as_str()], |r| r.get(0))?;
            if n as usize >= MAX_LINES {
                return Ok(None);
            }
            tx.prepare_cached(
                "INSERT INTO chat (game, n, side, text, at) VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![game.as_str(), n, side.name(), text, at])?;
            Ok(Some(Line {
                n,
                side: side.into(),
                text,
                at,
            }))
        })
        .await
    }

    /// A game's chat, oldest line first.
    ///
    /// # Errors
    ///
    /// SQLite's failures.
    pub async fn chat(&self, game: &GameId) -> Result<Vec<Line>, StoreError> {
        let game = game.clone();
        self.call(move |tx| {
            let mut stmt =
                tx.prepare_cached("SELECT n, side, text, at FROM chat WHERE game = ?1 ORDER BY n")?;
            let rows = stmt.query_map([game.as_str()], |r| {
                Ok((
                    r.get::<_, u32>(0)?,
                    r.get::<_, String>(1)?,
                    r.get(2)?,
                    r.get(3)?,
                ))
            })?;
            let mut lines = Vec::new();
            for row in rows {
                let (n, side, text, at) = row?;
                let side: Color = side.parse().map_err(|_| StoreError::Corrupt {
                    id: game.to_string(),
                    reason: format!("chat side {side:?}"),
                })?;
                lines.push(Line {
                    n,
                    side: side.into(),
                    text,
                    at,
                });
            }
            Ok(lines)
        })
        .await
    }

    /// The rated games made since `since` (seconds since 1970) between two players, in
    /// either colours: how many, and how many of them with both on one network.
    ///
    /// # Errors
    ///
    /// SQLite's failures.
    pub async fn rated_between(
        &self,
        a: PlayerId,
        b: PlayerId,
        since: i64,
    ) -> Result<(u32, u32), StoreError> {
        self.call(move |tx| rated_between(tx, a, b, since)).await
    }

    /// Adds a new game. Returns after the commit.
    ///
    /// # Errors
    ///
    /// When SQLite fails (an id taken twice included).
    pub async fn insert(&self, game: &GameState) -> Result<(), StoreError> {
        let game = game.clone();
        self.call(move |tx| insert(tx, &game)).await
    }

    /// Writes a finished game that now names its rematch, and the rematch, in one
    /// transaction: both or neither.
    ///
    /// # Errors
    ///
    /// [`StoreError::Stale`] when the stored version of `game` is not the one before;
    /// SQLite's failures.
    pub async fn insert_rematch(
        &self,
        game: &GameState,
        rematch: &GameState,
    ) -> Result<(), StoreError> {
        let (game, rematch) = (game.clone(), rematch.clone());
        self.call(move |tx| {
            update(tx, &game)?;
            insert(tx, &rematch)
        })
        .await
    }

    /// Writes a changed game whose version is one more than the stored one, and, when a rated
    /// game has just ended, both players' new ratings. Returns after the commit, with the
    /// rating changes.
    ///
    /// # Errors
    ///
    /// [`StoreError::Stale`] when the stored version is not the one before; SQLite's failures.
    pub async fn update(
        &self,
        game: &GameState,
    ) -> Result<Option<ByColor<RatingChange>>, StoreError> {
        let game = game.clone();
        self.call(move |tx| update(tx, &game)).await
    }

    /// Reads a game, replaying its plies through the rules.
    ///
    /// # Errors
    ///
    /// SQLite's failures, and [`StoreError::Corrupt`] for a row that is not a game.
    pub async fn load(&self, id: &GameId) -> Result<Option<GameState>, StoreError> {
        let id = id.clone();
        self.call(move |tx| load(tx, &id)).await
    }

    /// The games in which the computer is to move: after a restart it moves in them.
    ///
    /// # Errors
    ///
    /// SQLite's failures.
    pub async fn waiting_for_computer(&self) -> Result<Vec<GameId>, StoreError> {
        self.call(|tx| ids(tx, "SELECT id FROM games WHERE computer_to_move = 1", []))
            .await
    }

    /// The games played with a clock, and when the flag of the side to move falls in each.
    ///
    /// # Errors
    ///
    /// SQLite's failures.
    pub async fn deadlines(&self) -> Result<Vec<(Millis, GameId)>, StoreError> {
        self.call(|tx| {
            let mut stmt = tx.prepare_cached(
                "SELECT deadline, id FROM games WHERE over = 0 AND deadline IS NOT NULL",
            )?;
            let rows = stmt
                .query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))?
                .filter_map(|r| {
                    let (d, id) = r.ok()?;
                    Some((d, id.parse().ok()?))
                })
                .collect();
            Ok(rows)
        })
        .await
    }

    /// A player's wins, draws and losses against people.
    ///
    /// # Errors
    ///
    /// SQLite's failures.
    pub async fn counts(&self, player: PlayerId) -> Result<Counts, StoreError> {
        self.call(move |tx| counts(tx, player)).await
    }

    /// The games of a player (or, without one, of everybody), newest first, as the filter
    /// says.
    ///
    /// # Errors
    ///
    /// SQLite's failures.
    pub async fn games(
        &self,
        player: Option<PlayerId>,
        filter: HistoryFilter,
    ) -> Result<Vec<GameSummary>, StoreError> {
        self.call(move |tx| summaries(tx, player, &filter)).await
    }
}

/// Which games a list holds.
#[derive(Debug, Clone, Default)]
pub struct HistoryFilter {
    /// Only this variant.
    pub variant: Option<Variant>,
    /// Only games being played (`Some(false)`) or finished (`Some(true)`).
    pub over: Option<bool>,
    /// Only games the player won, drew or lost.
    pub result: Option<PlayerResult>,
    /// Only games between two people.
    pub people_only: bool,
    /// The most games listed.
    pub limit: usize,
    /// Games updated before this time only (seconds since 1970), to page back.
    pub before: Option<i64>,
}

/// A game's result as seen by one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlayerResult {
    /// The player won.
    Win,
    /// A draw.
    Draw,
    /// The player lost.
    Loss,
}

/// A game in a list.
#[derive(Debug, Clone, Serialize)]
pub struct GameSummary {
    /// Its id.
    pub id: String,
    /// The variant's name.
    pub variant: String,
    /// The players' names (user names of signed-up players, else the name given, if any).
    pub white: Option<String>,
    /// See `white`.
    pub black: Option<String>,
    /// The time control, such as `3+2`, if any.
    pub clock: Option<String>,
    /// Whether it is rated.
    pub rated: bool,
    /// The seat of the player whose games are listed (`null` in a list of everybody's).
    pub color: Option<Side>,
    /// `1-0`, `0-1`, `1/2-1/2`, `*` (aborted), or `null` while it is played.
    pub result: Option<String>,
    /// The end's reason, such as `timeout`.
    pub reason: Option<String>,
    /// Plies played.
    pub plies: u32,
    /// The last change, in seconds since 1970.
    pub updated: i64,
}

/// The end of a game that its plies do not show: a resignation, an agreement, or a result
/// read from an imported record.
fn explicit_end(game: &Game) -> Option<Outcome> {
    let outcome = game.outcome()?;
    let mut bare = game.clone();
    bare.set_ended(None);
    (bare.outcome() != Some(outcome)).then_some(outcome)
}

fn outcome_text(o: Outcome) -> String {
    format!(
        "{} {}",
        o.winner.map_or("draw", Color::name),
        o.reason.name()
    )
}

fn parse_outcome(text: &str) -> Option<Outcome> {
    let (who, reason) = text.split_once(' ')?;
    let reason = Reason::from_name(reason)?;
    match who {
        "draw" => Some(Outcome::draw(reason)),
        c => Some(Outcome::win(c.parse().ok()?, reason)),
    }
}

fn level(p: &Player) -> Option<u8> {
    match p {
        Player::Computer(l) => Some(*l),
        Player::Human(_) => None,
    }
}

fn name(p: &Player) -> Option<&str> {
    match p {
        Player::Human(n) => n.as_ref().map(Name::as_str),
        Player::Computer(_) => None,
    }
}

fn token(t: &Option<TokenHash>) -> Option<&[u8]> {
    t.as_ref().map(|h| h.0.as_slice())
}

/// Adds the plies from the `from`-th (counted from 0) to the end, with their times.
fn append_plies(
    tx: &rusqlite::Transaction<'_>,
    g: &GameState,
    from: usize,
) -> Result<(), StoreError> {
    let texts = g.game.ply_texts();
    let mut stmt = tx
        .prepare_cached("INSERT INTO plies (game, n, ply, at, left) VALUES (?1, ?2, ?3, ?4, ?5)")?;
    for (n, text) in texts.iter().enumerate().skip(from) {
        let time = g.times.get(n);
        stmt.execute(params![
            g.id.as_str(),
            n as i64,
            text,
            time.map(|t| t.at),
            time.and_then(|t| t.left)
        ])?;
    }
    Ok(())
}

/// The columns of a clock: the control, each side's time left, since when, the deadline.
type ClockColumns = (
    Option<String>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
);

fn clock_columns(g: &GameState) -> ClockColumns {
    match &g.clock {
        None => (None, None, None, None, None),
        Some(c) => (
            Some(c.control.to_string()),
            Some(c.left.white),
            Some(c.left.black),
            Some(c.since),
            g.deadline(),
        ),
    }
}

/// The rated games made since `since` (seconds since 1970) between two players, in either
/// colours: how many in all, and how many of them with both players on one network.
pub(super) fn rated_between(
    tx: &rusqlite::Transaction<'_>,
    a: PlayerId,
    b: PlayerId,
    since: i64,
) -> Result<(u32, u32), StoreError> {
    Ok(tx
        .prepare_cached(
            "SELECT count(*), coalesce(sum(same_network), 0) FROM games
             WHERE rated = 1 AND created >= ?3
               AND ((white_player = ?1 AND black_player = ?2)
                 OR (white_player = ?2 AND black_player = ?1))",
        )?
        .query_row(params![a.0, b.0, since], |r| Ok((r.get(0)?, r.get(1)?)))?)
}

fn insert(tx: &rusqlite::Transaction<'_>, g: &GameState) -> Result<(), StoreError> {
    let count = g.game.plies().len() as i64;
    let t = now();
    let (control, white_ms, black_ms, since, deadline) = clock_columns(g);
    tx.prepare_cached(
        "INSERT INTO games (id, variant, start, ply_count, opponent,
             white_level, white_name, white_token, black_level, black_name, black_token,
             ended, draw_offer, version, over, computer_to_move, created, updated,
             white_player, black_player, rated, clock, white_ms, black_ms, clock_since,
             deadline, ended_at, result, opening, awaiting, unrated_why, same_network)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?32, ?17,
             ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31)",
    )?
    .execute(params![
        g.id.as_str(),
        g.game.start().rules().variant.name(),
        g.game.start().to_string(),
        count,
        g.opponent.name(),
        level(&g.players.white),
        name(&g.players.white),
        token(&g.seats.white),
        level(&g.players.black),
        name(&g.players.black),
        token(&g.seats.black),
        explicit_end(&g.game).map(outcome_text),
        g.draw_offer.map(Color::name),
        g.version as i64,
        g.is_over(),
        g.computer_to_move().is_some(),
        t,
        g.accounts.white.map(|p| p.0),
        g.accounts.black.map(|p| p.0),
        g.rated,
        control,
        white_ms,
        black_ms,
        since,
        deadline,
        g.ended_at,
        g.game.outcome().map(outcome_text),
        g.opening as i64,
        g.awaiting.map(Color::name),
        g.unrated_why,
        g.same_network,
        g.created,
    ])?;
    append_plies(tx, g, 0)
}

/// Writes a change: the plies taken back are deleted, the new ones appended (one a ply, as a
/// rule), and the game's row changed; the plies before stay as they are. A rated game that
/// ends here changes its players' ratings in the same transaction.
fn update(
    tx: &rusqlite::Transaction<'_>,
    g: &GameState,
) -> Result<Option<ByColor<RatingChange>>, StoreError> {
    let stored: Option<(i64, i64, bool)> = tx
        .prepare_cached("SELECT ply_count, version, over FROM games WHERE id = ?1")?
        .query_row([g.id.as_str()], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .optional()?;
    let Some((stored_count, version, was_over)) = stored else {
        return Err(StoreError::Stale(g.id.to_string()));
    };
    if version != g.version as i64 - 1 {
        return Err(StoreError::Stale(g.id.to_string()));
    }
    let count = g.game.plies().len();
    let stored_count = usize::try_from(stored_count).unwrap_or(0);
    if count < stored_count {
        tx.prepare_cached("DELETE FROM plies WHERE game = ?1 AND n >= ?2")?
            .execute(params![g.id.as_str(), count as i64])?;
    } else if count > stored_count {
        append_plies(tx, g, stored_count)?;
    }
    let (_, white_ms, black_ms, since, deadline) = clock_columns(g);
    let changed = tx
        .prepare_cached(
            "UPDATE games SET ply_count = ?2, ended = ?3, draw_offer = ?4, version = ?5,
                 over = ?6, computer_to_move = ?7, updated = ?8, white_ms = ?9, black_ms = ?10,
                 clock_since = ?11, deadline = ?12, ended_at = ?13, white_player = ?14,
                 black_player = ?15, result = ?16, rematch_offer = ?17, next_game = ?18,
                 takeback_offer = ?19, opening = ?20, awaiting = ?21
             WHERE id = ?1 AND version = ?5 - 1",
        )?
        .execute(params![
            g.id.as_str(),
            count as i64,
            explicit_end(&g.game).map(outcome_text),
            g.draw_offer.map(Color::name),
            g.version as i64,
            g.is_over(),
            g.computer_to_move().is_some(),
            now(),
            white_ms,
            black_ms,
            since,
            deadline,
            g.ended_at,
            g.accounts.white.map(|p| p.0),
            g.accounts.black.map(|p| p.0),
            g.game.outcome().map(outcome_text),
            g.rematch_offer.map(Color::name),
            g.next_game.as_ref().map(GameId::as_str),
            g.takeback_offer.map(Color::name),
            g.opening as i64,
            g.awaiting.map(Color::name),
        ])?;
    if changed != 1 {
        return Err(StoreError::Stale(g.id.to_string()));
    }
    if g.is_over() && !was_over {
        return super::ratings::apply(tx, g);
    }
    Ok(None)
}

fn ids<P: rusqlite::Params>(
    tx: &rusqlite::Transaction<'_>,
    sql: &str,
    params: P,
) -> Result<Vec<GameId>, StoreError> {
    let mut stmt = tx.prepare_cached(sql)?;
    let ids = stmt
        .query_map(params, |r| r.get::<_, String>(0))?
        .filter_map(|r| r.ok().and_then(|s| s.parse().ok()))
        .collect();
    Ok(ids)
}

/// The most games a list holds.
pub const MAX_LIST: usize = 100;

/// The SQL condition of a player's result (`?1` is the player).
fn result_condition(result: PlayerResult) -> &'static str {
    match result {
        PlayerResult::Win => {
            "((g.white_player = ?1 AND g.result LIKE 'white %')
              OR (g.black_player = ?1 AND g.result LIKE 'black %'))"
        }
        PlayerResult::Loss => {
            "((g.white_player = ?1 AND g.result LIKE 'black %')
              OR (g.black_player = ?1 AND g.result LIKE 'white %'))"
        }
        // An aborted game counts for nobody: it is no draw.
        PlayerResult::Draw => "(g.result LIKE 'draw %' AND g.result <> 'draw aborted')",
    }
}

fn summaries(
    tx: &rusqlite::Transaction<'_>,
    player: Option<PlayerId>,
    f: &HistoryFilter,
) -> Result<Vec<GameSummary>, StoreError> {
    let mut sql = String::from(
        "SELECT g.id, g.variant, coalesce(pw.name, g.white_name), coalesce(pb.name, g.black_name),
                g.clock, g.rated, g.result, g.ply_count, g.updated, g.white_level, g.black_level,
                CASE ?1 WHEN g.white_player THEN 'white' WHEN g.black_player THEN 'black' END
         FROM games g
         LEFT JOIN players pw ON pw.id = g.white_player
         LEFT JOIN players pb ON pb.id = g.black_player
         WHERE ",
    );
    // ?1 is always the player (NULL for everybody's games), so that conditions can name it.
    sql.push_str(if player.is_some() {
        "?1 IN (g.white_player, g.black_player)"
    } else {
        "?1 IS NULL"
    });
    let mut args: Vec<rusqlite::types::Value> = vec![player.map(|p| p.0).into()];
    if let Some(v) = f.variant {
        args.push(v.name().to_owned().into());
        sql.push_str(&format!(" AND g.variant = ?{}", args.len()));
    }
    if let Some(over) = f.over {
        args.push(i64::from(over).into());
        sql.push_str(&format!(" AND g.over = ?{}", args.len()));
    }
    if let Some(before) = f.before {
        args.push(before.into());
        sql.push_str(&format!(" AND g.updated < ?{}", args.len()));
    }
    if let (Some(result), Some(_)) = (f.result, player) {
        sql.push_str(" AND ");
        sql.push_str(result_condition(result));
    }
    if f.people_only {
        sql.push_str(" AND g.opponent = 'friend'");
    }
    let limit = f.limit.clamp(1, MAX_LIST);
    sql.push_str(&format!(" ORDER BY g.updated DESC, g.id LIMIT {limit}"));
    let mut stmt = tx.prepare(&sql)?;
    let rows = stmt.query_map(rusqlite::params_from_iter(args.iter()), |r| {
        let level = |l: Option<u8>, n: Option<String>| match l {
            Some(l) => Some(format!("Computer (level {l})")),
            None => n,
        };
        let result: Option<String> = r.get(6)?;
        let outcome = result.as_deref().and_then(parse_outcome);
        Ok(GameSummary {
            id: r.get(0)?,
            variant: r.get(1)?,
            white: level(r.get(9)?, r.get(2)?),
            black: level(r.get(10)?, r.get(3)?),
            clock: r.get(4)?,
            rated: r.get(5)?,
            color: match r.get::<_, Option<String>>(11)?.as_deref() {
                Some("white") => Some(Side::White),
                Some("black") => Some(Side::Black),
                _ => None,
            },
            result: outcome.map(|o| o.result().to_owned()),
            reason: outcome.map(|o| o.reason.name().to_owned()),
            plies: r.get(7)?,
            updated: r.get(8)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// A player's wins, draws and losses in games between people.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

fn counts(tx: &rusqlite::Transaction<'_>, player: PlayerId) -> Result<Counts, StoreError> {
    let sql = format!(
        "SELECT coalesce(sum({}), 0), coalesce(sum({}), 0), coalesce(sum({}), 0) FROM games g
         WHERE ?1 IN (g.white_player, g.black_player) AND g.over = 1 AND g.opponent = 'friend'",
        result_condition(PlayerResult::Win),
        result_condition(PlayerResult::Draw),
        result_condition(PlayerResult::Loss),
    );
    Ok(tx.query_row(&sql, [player.0], |r| {
        Ok(Counts {
            wins: r.get(0)?,
            draws: r.get(1)?,
            losses: r.get(2)?,
        })
    })?)
}

struct Row {
    variant: String,
    start: String,
    moves: Vec<(String, PlyTime)>,
    opponent: String,
    levels: ByColor<Option<u8>>,
    names: ByColor<Option<String>>,
    tokens: ByColor<Option<Vec<u8>>>,
    ended: Option<String>,
    draw_offer: Option<String>,
    version: i64,
    created: i64,
    players: ByColor<Option<i64>>,
    rated: bool,
    clock: Option<String>,
    left: ByColor<Option<i64>>,
    since: Option<i64>,
    ended_at: Option<i64>,
    rematch_offer: Option<String>,
    next_game: Option<String>,
    takeback_offer: Option<String>,
    opening: i64,
    awaiting: Option<String>,
    unrated_why: Option<String>,
    same_network: bool,
}

pub(super) fn load(
    tx: &rusqlite::Transaction<'_>,
    id: &GameId,
) -> Result<Option<GameState>, StoreError> {
    let row = tx
        .prepare_cached(
            "SELECT variant, start, ply_count, opponent, white_level, white_name, white_token,
                    black_level, black_name, black_token, ended, draw_offer, version, created,
                    white_player, black_player, rated, clock, white_ms, black_ms, clock_since,
                    ended_at, rematch_offer, next_game, takeback_offer, opening, awaiting,
                    unrated_why, same_network
             FROM games WHERE id = ?1",
        )?
        .query_row([id.as_str()], |r| {
            Ok(Row {
                variant: r.get(0)?,
                start: r.get(1)?,
                moves: Vec::with_capacity(r.get::<_, i64>(2)?.clamp(0, 4096) as usize),
                opponent: r.get(3)?,
                levels: ByColor::new(r.get(4)?, r.get(7)?),
                names: ByColor::new(r.get(5)?, r.get(8)?),
                tokens: ByColor::new(r.get(6)?, r.get(9)?),
                ended: r.get(10)?,
                draw_offer: r.get(11)?,
                version: r.get(12)?,
                created: r.get(13)?,
                players: ByColor::new(r.get(14)?, r.get(15)?),
                rated: r.get(16)?,
                clock: r.get(17)?,
                left: ByColor::new(r.get(18)?, r.get(19)?),
                since: r.get(20)?,
                ended_at: r.get(21)?,
                rematch_offer: r.get(22)?,
                next_game: r.get(23)?,
                takeback_offer: r.get(24)?,
                opening: r.get(25)?,
                awaiting: r.get(26)?,
                unrated_why: r.get(27)?,
                same_network: r.get(28)?,
            })
        })
        .optional()?;
    let Some(mut row) = row else {
        return Ok(None);
    };
    let mut stmt =
        tx.prepare_cached("SELECT ply, at, left FROM plies WHERE game = ?1 ORDER BY n")?;
    let plies = stmt.query_map([id.as_str()], |r| {
        Ok((
            r.get::<_, String>(0)?,
            PlyTime {
                at: r.get::<_, Option<i64>>(1)?.unwrap_or(0),
                left: r.get(2)?,
            },
        ))
    })?;
    for ply in plies {
        row.moves.push(ply?);
    }
    let mut state = rebuild(id, row)?;
    state.ratings = super::ratings::changes_of(tx, &state)?;
    Ok(Some(state))
}

fn rebuild(id: &GameId, row: Row) -> Result<GameState, StoreError> {
    let corrupt = |reason: String| StoreError::Corrupt {
        id: id.to_string(),
        reason,
    };
    let variant: Variant = row.variant.parse().map_err(|e| corrupt(format!("{e}")))?;
    let start =
        Position::from_fen(variant.rules(), &row.start).map_err(|e| corrupt(e.to_string()))?;
    let mut game = Game::new(start);
    let mut times = Vec::with_capacity(row.moves.len());
    for (i, (ply, time)) in row.moves.iter().enumerate() {
        game.play_text(ply)
            .map_err(|e| corrupt(format!("ply {}: {e}", i + 1)))?;
        times.push(*time);
    }
    if let Some(text) = &row.ended {
        let outcome = parse_outcome(text).ok_or_else(|| corrupt(format!("end {text:?}")))?;
        game.set_ended(Some(outcome));
    }
    let opponent = Opponent::from_name(&row.opponent)
        .ok_or_else(|| corrupt(format!("opponent {:?}", row.opponent)))?;
    let player = |level: Option<u8>, name: Option<String>| match level {
        Some(l) => Player::Computer(l),
        None => Player::Human(name.and_then(|n| Name::new(&n).ok())),
    };
    let hash = |t: Option<Vec<u8>>| -> Result<Option<TokenHash>, StoreError> {
        t.map(|bytes| {
            <[u8; 32]>::try_from(bytes.as_slice())
                .map(TokenHash)
                .map_err(|_| corrupt("a token hash is not 32 bytes".into()))
        })
        .transpose()
    };
    let draw_offer = match row.draw_offer.as_deref() {
        None => None,
        Some(c) => Some(
            c.parse()
                .map_err(|_| corrupt(format!("draw offer {c:?}")))?,
        ),
    };
    let clock = match (&row.clock, row.left.white, row.left.black, row.since) {
        (None, ..) => None,
        (Some(text), Some(white), Some(black), Some(since)) => Some(Clock {
            control: text
                .parse::<TimeControl>()
                .map_err(|e| corrupt(format!("clock: {e}")))?,
            left: ByColor::new(white, black),
            since,
        }),
        (Some(text), ..) => return Err(corrupt(format!("clock {text:?} without its times"))),
    };
    let mut state = GameState::new(
        id.clone(),
        game,
        opponent,
        ByColor::new(
            player(row.levels.white, row.names.white),
            player(row.levels.black, row.names.black),
        ),
        ByColor::new(hash(row.tokens.white)?, hash(row.tokens.black)?),
        row.created,
    );
    state.draw_offer = draw_offer;
    state.version = u64::try_from(row.version).map_err(|_| corrupt("negative version".into()))?;
    state.accounts = ByColor::new(
        row.players.white.map(PlayerId),
        row.players.black.map(PlayerId),
    );
    state.rated = row.rated;
    state.unrated_why = row.unrated_why;
    state.same_network = row.same_network;
    state.clock = clock;
    state.times = times;
    state.ended_at = row.ended_at;
    state.rematch_offer = match row.rematch_offer.as_deref() {
        None => None,
        Some(c) => Some(
            c.parse()
                .map_err(|_| corrupt(format!("rematch offer {c:?}")))?,
        ),
    };
    state.takeback_offer = match row.takeback_offer.as_deref() {
        None => None,
        Some(c) => Some(
            c.parse()
                .map_err(|_| corrupt(format!("take-back request {c:?}")))?,
        ),
    };
    state.opening = usize::try_from(row.opening)
        .map_err(|_| corrupt("negative opening".into()))?
        .min(state.game.plies().len());
    state.awaiting = match row.awaiting.as_deref() {
        None => None,
        Some(c) => Some(
            c.parse()
                .map_err(|_| corrupt(format!("awaited side {c:?}")))?,
        ),
    };
    state.next_game = match row.next_game.as_deref() {
        None => None,
        Some(n) => Some(
            n.parse()
                .map_err(|()| corrupt(format!("next game {n:?}")))?,
        ),
    };
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_round_trip_as_text() {
        for o in [
            Outcome::win(Color::Black, Reason::Resignation),
            Outcome::draw(Reason::Agreement),
        ] {
            assert_eq!(parse_outcome(&outcome_text(o)), Some(o));
        }
        assert_eq!(parse_outcome("nobody resignation"), None);
    }
}
