//! The schema, as numbered migrations for each backend. A migration, once shipped, never
//! changes: a new schema is a new entry at the end.

/// Migration 2 (both backends, the same tables): open seats to be claimed
/// (`POST …/join`), the names players gave when claiming, and fair-start ready marks, shared
/// by every node of a cluster.
const OPEN_SEATS_AND_READY: &str = r#"
CREATE TABLE open_seats (
    match_id TEXT    NOT NULL REFERENCES matches (id),
    seat     BIGINT  NOT NULL,
    PRIMARY KEY (match_id, seat)
);
CREATE TABLE seat_names (
    match_id TEXT    NOT NULL REFERENCES matches (id),
    seat     BIGINT  NOT NULL,
    name     TEXT    NOT NULL,
    PRIMARY KEY (match_id, seat)
);
CREATE TABLE ready_marks (
    match_id TEXT    NOT NULL REFERENCES matches (id),
    seat     BIGINT  NOT NULL,
    PRIMARY KEY (match_id, seat)
);
"#;

/// SQLite migrations, `(version, sql)`, applied in order in one transaction each.
pub(crate) const SQLITE: &[(i64, &str)] = &[
    (
        1,
        r#"
CREATE TABLE content (
    game          TEXT    NOT NULL,
    revision      TEXT    NOT NULL,
    bundle        TEXT    NOT NULL,
    created_at_ms INTEGER NOT NULL,
    PRIMARY KEY (game, revision)
);
CREATE TABLE current_revision (
    game     TEXT NOT NULL PRIMARY KEY,
    revision TEXT NOT NULL,
    FOREIGN KEY (game, revision) REFERENCES content (game, revision)
);
CREATE TABLE matches (
    id                   TEXT    NOT NULL PRIMARY KEY,
    game                 TEXT    NOT NULL,
    config               TEXT    NOT NULL,
    revision             TEXT    NOT NULL,
    seed                 TEXT    NOT NULL,
    seats                TEXT    NOT NULL,
    tick_rate            INTEGER NOT NULL,
    seat_token_hashes    TEXT    NOT NULL,
    spectator_token_hash TEXT,
    created_at_ms        INTEGER NOT NULL,
    status               TEXT    NOT NULL CHECK (status IN ('active', 'finished', 'archived')),
    outcome              TEXT,
    last_activity_ms     INTEGER NOT NULL,
    FOREIGN KEY (game, revision) REFERENCES content (game, revision)
);
CREATE INDEX matches_by_status ON matches (status, created_at_ms);
CREATE INDEX matches_by_activity ON matches (last_activity_ms) WHERE status <> 'archived';
CREATE TABLE match_tokens (
    token_hash TEXT NOT NULL,
    match_id   TEXT NOT NULL REFERENCES matches (id),
    PRIMARY KEY (token_hash, match_id)
);
CREATE TABLE command_log (
    match_id       TEXT    NOT NULL REFERENCES matches (id),
    sequence       INTEGER NOT NULL CHECK (sequence >= 1),
    command_id     TEXT    NOT NULL,
    tick           INTEGER NOT NULL,
    envelope       TEXT    NOT NULL,
    receipt        TEXT    NOT NULL,
    recorded_at_ms INTEGER NOT NULL,
    CONSTRAINT command_log_sequence UNIQUE (match_id, sequence),
    CONSTRAINT command_log_command_id UNIQUE (match_id, command_id)
);
CREATE TABLE rejections (
    match_id           TEXT    NOT NULL REFERENCES matches (id),
    command_id         TEXT    NOT NULL,
    seat               INTEGER,
    action_fingerprint TEXT    NOT NULL,
    rejection          TEXT    NOT NULL,
    recorded_at_ms     INTEGER NOT NULL,
    PRIMARY KEY (match_id, command_id)
);
CREATE TABLE snapshots (
    match_id          TEXT    NOT NULL REFERENCES matches (id),
    sequence          INTEGER NOT NULL,
    tick              INTEGER NOT NULL,
    state_fingerprint TEXT    NOT NULL,
    last_receipt_hash TEXT,
    state             TEXT    NOT NULL,
    PRIMARY KEY (match_id, sequence)
);
CREATE TABLE leases (
    match_id            TEXT    NOT NULL PRIMARY KEY REFERENCES matches (id),
    node_id             TEXT    NOT NULL,
    expires_at_ms       INTEGER NOT NULL,
    last_heartbeat_tick INTEGER NOT NULL
);
"#,
    ),
    (2, OPEN_SEATS_AND_READY),
];

/// PostgreSQL migrations, `(version, sql)`, applied in order in one transaction each, under
/// an advisory lock. JSON is kept as `text` so it reads back byte for byte as written.
pub(crate) const POSTGRES: &[(i64, &str)] = &[
    (
        1,
        r#"
CREATE TABLE content (
    game          text   NOT NULL,
    revision      text   NOT NULL,
    bundle        text   NOT NULL,
    created_at_ms bigint NOT NULL,
    PRIMARY KEY (game, revision)
);
CREATE TABLE current_revision (
    game     text NOT NULL PRIMARY KEY,
    revision text NOT NULL,
    FOREIGN KEY (game, revision) REFERENCES content (game, revision)
);
CREATE TABLE matches (
    id                   text    NOT NULL PRIMARY KEY,
    game                 text    NOT NULL,
    config               text    NOT NULL,
    revision             text    NOT NULL,
    seed                 text    NOT NULL,
    seats                text    NOT NULL,
    tick_rate            bigint  NOT NULL,
    seat_token_hashes    text    NOT NULL,
    spectator_token_hash text,
    created_at_ms        bigint  NOT NULL,
    status               text    NOT NULL CHECK (status IN ('active', 'finished', 'archived')),
    outcome              text,
    last_activity_ms     bigint  NOT NULL,
    FOREIGN KEY (game, revision) REFERENCES content (game, revision)
);
CREATE INDEX matches_by_status ON matches (status, created_at_ms);
CREATE INDEX matches_by_activity ON matches (last_activity_ms) WHERE status <> 'archived';
CREATE TABLE match_tokens (
    token_hash text NOT NULL,
    match_id   text NOT NULL REFERENCES matches (id),
    PRIMARY KEY (token_hash, match_id)
);
CREATE TABLE command_log (
    match_id       text   NOT NULL REFERENCES matches (id),
    sequence       bigint NOT NULL CHECK (sequence >= 1),
    command_id     text   NOT NULL,
    tick           bigint NOT NULL,
    envelope       text   NOT NULL,
    receipt        text   NOT NULL,
    recorded_at_ms bigint NOT NULL,
    CONSTRAINT command_log_sequence UNIQUE (match_id, sequence),
    CONSTRAINT command_log_command_id UNIQUE (match_id, command_id)
);
CREATE TABLE rejections (
    match_id           text   NOT NULL REFERENCES matches (id),
    command_id         text   NOT NULL,
    seat               bigint,
    action_fingerprint text   NOT NULL,
    rejection          text   NOT NULL,
    recorded_at_ms     bigint NOT NULL,
    PRIMARY KEY (match_id, command_id)
);
CREATE TABLE snapshots (
    match_id          text   NOT NULL REFERENCES matches (id),
    sequence          bigint NOT NULL,
    tick              bigint NOT NULL,
    state_fingerprint text   NOT NULL,
    last_receipt_hash text,
    state             text   NOT NULL,
    PRIMARY KEY (match_id, sequence)
);
CREATE TABLE leases (
    match_id            text   NOT NULL PRIMARY KEY REFERENCES matches (id),
    node_id             text   NOT NULL,
    expires_at_ms       bigint NOT NULL,
    last_heartbeat_tick bigint NOT NULL
);
"#,
    ),
    (2, OPEN_SEATS_AND_READY),
];

/// The schema version this build writes.
pub(crate) const CURRENT: i64 = 2;
