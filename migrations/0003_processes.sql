-- Several bot processes on one database (src/storage/pg/fleet.rs).

-- Each process, with when it last said it was alive (the database's clock, so processes on
-- machines whose clocks differ agree on who is alive).
CREATE TABLE processes (
    id text COLLATE "C" PRIMARY KEY,
    started_at timestamptz NOT NULL DEFAULT now(),
    alive_at timestamptz NOT NULL DEFAULT now()
);

-- The processes alive: a heartbeat less than 10 s old (the service beats every 2 s). Every
-- question of who is alive reads this one view.
CREATE VIEW live_processes AS
    SELECT id FROM processes WHERE alive_at > now() - interval '10 seconds';

-- A count of the writes to each channel (its record and its games): a process that finds the
-- count where it left it may keep what it holds in memory; otherwise it reads the channel again.
CREATE TABLE channel_stamps (
    channel text COLLATE "C" PRIMARY KEY,
    stamp bigint NOT NULL
);

-- Game numbers handed out and not yet stored, by process: a number is never handed out twice
-- while its process lives, and one whose process died unstored is handed out again.
CREATE TABLE number_claims (
    number bigint PRIMARY KEY,
    process text COLLATE "C" NOT NULL
);

-- A deadline being settled by a process is claimed until then (in the service's time).
ALTER TABLE deadlines ADD COLUMN claimed_until bigint NOT NULL DEFAULT 0;

-- The process that delivers each outbox entry: the one that wrote it, or the one that took
-- it over after its writer died. '' : written by a copy from sled, taken by the first asker.
ALTER TABLE outbox ADD COLUMN owner text COLLATE "C" NOT NULL DEFAULT '';

-- Claimed deadlines are few: the timer finds the earliest claim lapsing without a scan.
CREATE INDEX deadlines_claimed ON deadlines (claimed_until) WHERE claimed_until <> 0;

-- Work one process does for the whole fleet (the bot's search in a channel, a hint, a
-- review): claimed by a process while it lives; a dead process's claims are void.
CREATE TABLE work_claims (
    key text COLLATE "C" PRIMARY KEY,
    process text COLLATE "C" NOT NULL
);
