#!/usr/bin/env bash
# Rerun the matches of the "Strength" section of docs/engine.md: the level ladder from its anchors
# (greedy against random, level 1 against greedy, each level against the one below, 40 games, one
# at a time: the chain of "Calibrating the ladder" replayed on the levels themselves), level 20
# against level 12, and the top level against Debian's Fairy-Stockfish 11.1
# (100 games, 200 ms a move, two at a time). Every match plays the openings of
# assets/openings.txt, each twice with colours swapped, adjudicated by our arbiter (official rules). Results and PGNs go to $OUT (default target/matches); BIN=path runs an
# already built binary instead of building this tree.
#
#   scripts/matches.sh              # everything (several hours on two busy cores)
#   scripts/matches.sh ladder       # only the ladder (with its anchors) and 20 vs 12
#   scripts/matches.sh fairy        # only the match against Fairy-Stockfish
set -euo pipefail
cd "$(dirname "$0")/.."
FSF=${FSF:-/usr/games/fairy-stockfish}
OUT=${OUT:-target/matches}
CONCURRENCY=${CONCURRENCY:-2}
mkdir -p "$OUT"
if [[ -z ${BIN:-} ]]; then
    cargo build --release --quiet
    BIN=target/release/xiangqi-bot
fi

run() {
    local name=$1 concurrency=$CONCURRENCY
    shift
    if [[ $1 == --one ]]; then
        concurrency=1
        shift
    fi
    echo "== $name: xiangqi-bot match $*"
    nice -n 10 "$BIN" match "$@" --openings assets/openings.txt --concurrency "$concurrency" \
        --pgn "$OUT/$name.pgn" | tee "$OUT/$name.txt"
}

what=${1:-all}
if [[ $what == all || $what == ladder ]]; then
    run greedy-vs-random --one builtin:greedy builtin:random --games 40
    run level1-vs-greedy --one builtin:1 builtin:greedy --games 40
    for level in $(seq 2 20); do
        run "level$level-vs-level$((level - 1))" --one "builtin:$level" "builtin:$((level - 1))" --games 40
    done
    run "level20-vs-level12" builtin:20 builtin:12 --games 40
fi
if [[ $what == all || $what == fairy ]]; then
    command -v "$FSF" >/dev/null || { echo "$FSF missing: apt-get install fairy-stockfish" >&2; exit 1; }
    run "builtin20-vs-fairy-stockfish" builtin:20 "uci:$FSF" --games 100 --movetime 200
fi
grep -h " Elo " "$OUT"/*.txt
