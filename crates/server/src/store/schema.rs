//! The tables of the database and the steps from older schemas.

/// The schema version written to `PRAGMA user_version`.
pub(super) const SCHEMA_VERSION: i64 = 8;

/// The tables of a database of morris.
pub(super) const TABLES: [&str; 11] = [
    "games",
    "plies",
    "players",
    "sessions",
    "ratings",
    "rating_history",
    "chat",
    "blocks",
    "reports",
    "mod_log",
    "follows",
];

/// The tables and indexes of the newest schema (each made only if missing).
pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id               TEXT PRIMARY KEY,
    variant          TEXT NOT NULL,
    start            TEXT NOT NULL,
    ply_count        INTEGER NOT NULL,
    opponent         TEXT NOT NULL,
    white_level      INTEGER,
    white_name       TEXT,
    white_token      BLOB,
    black_level      INTEGER,
    black_name       TEXT,
    black_token      BLOB,
    ended            TEXT,
    draw_offer       TEXT,
    version          INTEGER NOT NULL,
    over             INTEGER NOT NULL,
    computer_to_move INTEGER NOT NULL,
    created          INTEGER NOT NULL,
    updated          INTEGER NOT NULL,
    white_player     INTEGER,
    black_player     INTEGER,
    rated            INTEGER NOT NULL DEFAULT 0,
    clock            TEXT,
    white_ms         INTEGER,
    black_ms         INTEGER,
    clock_since      INTEGER,
    deadline         INTEGER,
    ended_at         INTEGER,
    result           TEXT,
    rematch_offer    TEXT,
    next_game        TEXT,
    takeback_offer   TEXT,
    opening          INTEGER NOT NULL DEFAULT 0,
    awaiting         TEXT,
    unrated_why      TEXT,
    same_network     INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX IF NOT EXISTS games_waiting ON games (computer_to_move) WHERE computer_to_move = 1;
CREATE TABLE IF NOT EXISTS plies (
    game TEXT NOT NULL,
    n    INTEGER NOT NULL,
    ply  TEXT NOT NULL,
    at   INTEGER,
    left INTEGER,
    PRIMARY KEY (game, n)
) STRICT, WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS games_deadline ON games (deadline) WHERE deadline IS NOT NULL;
CREATE INDEX IF NOT EXISTS games_white ON games (white_player, updated) WHERE white_player IS NOT NULL;
CREATE INDEX IF NOT EXISTS games_black ON games (black_player, updated) WHERE black_player IS NOT NULL;
CREATE TABLE IF NOT EXISTS players (
    id       INTEGER PRIMARY KEY,
    name     TEXT UNIQUE COLLATE NOCASE,
    password TEXT,
    created  INTEGER NOT NULL,
    look     TEXT,
    moderator   INTEGER NOT NULL DEFAULT 0,
    muted_until INTEGER,
    closed      INTEGER
) STRICT;
CREATE INDEX IF NOT EXISTS players_look ON players (look) WHERE look IS NOT NULL;
CREATE TABLE IF NOT EXISTS sessions (
    hash    BLOB PRIMARY KEY,
    player  INTEGER NOT NULL REFERENCES players (id),
    csrf    TEXT NOT NULL,
    created INTEGER NOT NULL,
    seen    INTEGER NOT NULL DEFAULT 0,
    agent   TEXT NOT NULL DEFAULT ''
) STRICT, WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS sessions_seen ON sessions (seen);
CREATE INDEX IF NOT EXISTS sessions_player ON sessions (player);
CREATE TABLE IF NOT EXISTS ratings (
    player     INTEGER NOT NULL REFERENCES players (id),
    variant    TEXT NOT NULL,
    class      TEXT NOT NULL,
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    volatility REAL NOT NULL,
    games      INTEGER NOT NULL,
    PRIMARY KEY (player, variant, class)
) STRICT, WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS rating_history (
    player    INTEGER NOT NULL REFERENCES players (id),
    game      TEXT NOT NULL,
    variant   TEXT NOT NULL,
    class     TEXT NOT NULL,
    at        INTEGER NOT NULL,
    rating    REAL NOT NULL,
    deviation REAL NOT NULL,
    PRIMARY KEY (player, game)
) STRICT, WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS chat (
    game TEXT NOT NULL,
    n    INTEGER NOT NULL,
    side TEXT NOT NULL,
    text TEXT NOT NULL,
    at   INTEGER NOT NULL,
    PRIMARY KEY (game, n)
) STRICT, WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS blocks (
    blocker INTEGER NOT NULL REFERENCES players (id),
    blocked INTEGER NOT NULL REFERENCES players (id),
    created INTEGER NOT NULL,
    PRIMARY KEY (blocker, blocked)
) STRICT, WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS blocks_by_blocked ON blocks (blocked);
CREATE TABLE IF NOT EXISTS reports (
    id       INTEGER PRIMARY KEY,
    reporter INTEGER NOT NULL REFERENCES players (id),
    reported INTEGER NOT NULL REFERENCES players (id),
    reason   TEXT NOT NULL,
    game     TEXT,
    created  INTEGER NOT NULL,
    resolved INTEGER
) STRICT;
CREATE INDEX IF NOT EXISTS reports_by_reporter ON reports (reporter, created);
CREATE TABLE IF NOT EXISTS follows (
    follower INTEGER NOT NULL REFERENCES players (id),
    followed INTEGER NOT NULL REFERENCES players (id),
    created  INTEGER NOT NULL,
    PRIMARY KEY (follower, followed)
) STRICT, WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS mod_log (
    id        INTEGER PRIMARY KEY,
    at        INTEGER NOT NULL,
    moderator TEXT NOT NULL,
    action    TEXT NOT NULL,
    target    TEXT NOT NULL,
    detail    TEXT NOT NULL
) STRICT;
";

/// From schema 1, where each game's plies were one text rewritten on every change, to one row
/// per ply.
pub(super) const MIGRATE_FROM_1: &str = "
ALTER TABLE games ADD COLUMN ply_count INTEGER NOT NULL DEFAULT 0;
CREATE TABLE plies (
    game TEXT NOT NULL,
    n    INTEGER NOT NULL,
    ply  TEXT NOT NULL,
    PRIMARY KEY (game, n)
) STRICT, WITHOUT ROWID;
WITH RECURSIVE split(game, n, ply, rest) AS (
    SELECT id, -1, '', CASE WHEN trim(moves) = '' THEN '' ELSE trim(moves) || ' ' END
    FROM games
    UNION ALL
    SELECT game, n + 1, substr(rest, 1, instr(rest, ' ') - 1),
           ltrim(substr(rest, instr(rest, ' ') + 1))
    FROM split WHERE rest <> ''
)
INSERT INTO plies (game, n, ply) SELECT game, n, ply FROM split WHERE n >= 0;
UPDATE games SET ply_count = (SELECT count(*) FROM plies WHERE plies.game = games.id);
ALTER TABLE games DROP COLUMN moves;
";

/// From schema 2 to 3: the players of each seat, rated games, clocks and the time of each ply
/// (the new tables are made by [`SCHEMA`]).
pub(super) const MIGRATE_FROM_2: &str = "
ALTER TABLE games ADD COLUMN white_player INTEGER;
ALTER TABLE games ADD COLUMN black_player INTEGER;
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN clock TEXT;
ALTER TABLE games ADD COLUMN white_ms INTEGER;
ALTER TABLE games ADD COLUMN black_ms INTEGER;
ALTER TABLE games ADD COLUMN clock_since INTEGER;
ALTER TABLE games ADD COLUMN deadline INTEGER;
ALTER TABLE games ADD COLUMN ended_at INTEGER;
ALTER TABLE games ADD COLUMN result TEXT;
ALTER TABLE games ADD COLUMN rematch_offer TEXT;
ALTER TABLE games ADD COLUMN next_game TEXT;
ALTER TABLE games ADD COLUMN takeback_offer TEXT;
ALTER TABLE plies ADD COLUMN at INTEGER;
ALTER TABLE plies ADD COLUMN left INTEGER;
";

/// From schema 3 to 4: the plies of the record each game started from (nobody's in the game)
/// and the side invited by a link who has not come yet.
pub(super) const MIGRATE_FROM_3: &str = "
ALTER TABLE games ADD COLUMN opening INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN awaiting TEXT;
";

/// From schema 4 to 5, by table (a table missing, from a schema before 3, is made whole by
/// [`SCHEMA`]): when each session was last used and by what browser, the look of each user
/// name (its skeleton, filled in by the migration's caller), why a game that asked to be
/// rated is not, and whether its players came from one network.
pub(super) const MIGRATE_FROM_4: [(&str, &str); 3] = [
    (
        "sessions",
        "ALTER TABLE sessions ADD COLUMN seen INTEGER NOT NULL DEFAULT 0;
         ALTER TABLE sessions ADD COLUMN agent TEXT NOT NULL DEFAULT '';
         UPDATE sessions SET seen = created;",
    ),
    ("players", "ALTER TABLE players ADD COLUMN look TEXT;"),
    (
        "games",
        "ALTER TABLE games ADD COLUMN unrated_why TEXT;
         ALTER TABLE games ADD COLUMN same_network INTEGER NOT NULL DEFAULT 0;",
    ),
];

/// From schema 6 (and before) to 7, the players' standing: a moderator, muted in chat until a
/// time, closed since a time.
pub(super) const MIGRATE_PLAYERS_TO_7: &str = "
ALTER TABLE players ADD COLUMN moderator INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN muted_until INTEGER;
ALTER TABLE players ADD COLUMN closed INTEGER;
";

/// From schema 6 to 7: when a report was dealt with (schema 6 made the table without it).
pub(super) const MIGRATE_REPORTS_FROM_6: &str = "ALTER TABLE reports ADD COLUMN resolved INTEGER;";
