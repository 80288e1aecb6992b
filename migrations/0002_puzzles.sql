-- Puzzle records (src/game/puzzle.rs): a solver's puzzle rating and streak, and a puzzle's own
-- rating. The puzzle live in a channel is part of the channel's record.

CREATE TABLE puzzle_players (
    player text COLLATE "C" PRIMARY KEY,
    record bytea NOT NULL
);

CREATE TABLE puzzle_standings (
    puzzle text COLLATE "C" PRIMARY KEY,
    record bytea NOT NULL
);
