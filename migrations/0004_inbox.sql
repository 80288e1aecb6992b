-- Incoming events kept until handled (Telegram's polling inbox, src/adapters/telegram/polling.rs):
-- stored before Telegram is told they were received, forgotten once handled.
CREATE TABLE inbox (
    key text COLLATE "C" PRIMARY KEY,
    event bytea NOT NULL
);
