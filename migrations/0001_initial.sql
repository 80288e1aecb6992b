-- The first schema of the PostgreSQL storage (src/storage/pg/). Every record is one row: its
-- key columns, plus the record itself in the serde encoding the sled storage uses (JSON
-- bytes), so a new record kind is one table. Text keys sort as bytes (COLLATE "C"), as sled
-- orders its keys; numbers the service keeps as u64 are stored as bigint.

CREATE TABLE games (
    id bigint PRIMARY KEY,
    channel text COLLATE "C" NOT NULL,
    active boolean NOT NULL,
    record bytea NOT NULL
);
CREATE INDEX games_active ON games (id) WHERE active;

-- The games each player plays or played (newest first by id).
CREATE TABLE user_games (
    player text COLLATE "C" NOT NULL,
    game bigint NOT NULL,
    PRIMARY KEY (player, game)
);

CREATE TABLE channels (
    key text COLLATE "C" PRIMARY KEY,
    record bytea NOT NULL
);

CREATE TABLE users (
    key text COLLATE "C" PRIMARY KEY,
    record bytea NOT NULL
);

-- Deadline kinds are the integers of `DeadlineKind`.
CREATE TABLE deadlines (
    at_ms bigint NOT NULL,
    id bigint NOT NULL,
    kind smallint NOT NULL,
    channel text COLLATE "C" NOT NULL,
    PRIMARY KEY (at_ms, id, kind)
);

-- Replies to deliver, in order within each channel.
CREATE TABLE outbox (
    channel text COLLATE "C" NOT NULL,
    seq bigint NOT NULL,
    reply bytea NOT NULL,
    PRIMARY KEY (channel, seq)
);

-- Incoming platform events handled, with when.
CREATE TABLE seen (
    id text COLLATE "C" PRIMARY KEY,
    at_ms bigint NOT NULL
);
CREATE INDEX seen_at ON seen (at_ms);

CREATE TABLE meta (
    key text COLLATE "C" PRIMARY KEY,
    value bigint NOT NULL
);

CREATE TABLE reviews (
    game bigint PRIMARY KEY,
    done boolean NOT NULL,
    record bytea NOT NULL
);
CREATE INDEX reviews_pending ON reviews (game) WHERE NOT done;

-- Handles (`tg:@name`) and the player each belongs to.
CREATE TABLE aliases (
    handle text COLLATE "C" PRIMARY KEY,
    player text COLLATE "C" NOT NULL
);

-- Ratings, statistics, history and leaderboards: the ordered key space of
-- src/rating/keys.rs, one row per record. bytea compares as bytes, as sled does, so pages and
-- ranks are read exactly as the sled storage reads them.
CREATE TABLE ratings (
    k bytea PRIMARY KEY,
    v bytea NOT NULL
);

-- Challenge ids and outbox sequence numbers: never handed out twice, across restarts.
CREATE SEQUENCE ids START 1;
CREATE SEQUENCE outbox_seq START 1;
