#!/bin/sh
# An SPRT of the working tree against a previous build, at a fixed node budget (docs/engine.md,
# "Testing a change against the previous build"):
#
#   scripts/sprt.sh BASE [NODES] [ELO0,ELO1] [GAMES]    # defaults: 20000, 0,10, 2000
#
# BASE is a commit (usually HEAD before the change). Its build goes to $OUT/base, the working
# tree's to $OUT/new (OUT defaults to target/sprt); the games to $OUT/games.pgn, the match's
# report to $OUT/match.txt and the neutral referee's recount to $OUT/referee.txt.
set -eu
base=${1:?usage: scripts/sprt.sh BASE [NODES] [ELO0,ELO1] [GAMES]}
nodes=${2:-20000}
bounds=${3:-0,10}
games=${4:-2000}
root=$(git rev-parse --show-toplevel)
target=${CARGO_TARGET_DIR:-$root/target}
out=${OUT:-$root/target/sprt}
mkdir -p "$out"

# The base, built in a temporary worktree that shares the target directory (its dependencies
# are already built there).
tree=$(mktemp -d /tmp/xq-sprt-base.XXXXXX)
git -C "$root" worktree add --detach "$tree" "$base" >/dev/null
(cd "$tree" && CARGO_TARGET_DIR="$target" cargo build --release --bin xiangqi-bot)
cp "$target/release/xiangqi-bot" "$out/base"
git -C "$root" worktree remove --force "$tree"

# The base's build left the shared target directory looking up to date for the working tree:
# touch a source so cargo builds the working tree's own engine, and refuse identical builds.
touch "$root/src/lib.rs"
(cd "$root" && CARGO_TARGET_DIR="$target" cargo build --release --bin xiangqi-bot)
cp "$target/release/xiangqi-bot" "$out/new"
if cmp -s "$out/new" "$out/base"; then
    echo "sprt.sh: the new build is the base's; nothing to test" >&2
    exit 1
fi

cd "$root"
# Both sides through UCI, so the harness treats them alike (only the engines differ).
"$out/new" match "uci:$out/new uci" "uci:$out/base uci" --nodes "$nodes" --nodes-jitter 10 \
    --sprt "$bounds" --sprt-count mates --games "$games" --openings assets/openings-200.txt \
    --concurrency "${CONCURRENCY:-2}" --pgn "$out/games.pgn" | tee "$out/match.txt"
python3 scripts/referee.py "$out/games.pgn" --sprt "$bounds" | tee "$out/referee.txt"
