#!/usr/bin/env python3
"""A neutral referee for `xiangqi-bot match --pgn` files: Fairy-Stockfish's rules (pyffish).

    python3 scripts/referee.py GAMES.pgn [MORE.pgn ...] [--sprt 0,10] [--model normalized|logistic]

Every game is replayed under pyffish (variant "xiangqi"), which refuses a move that is not
among its own legal moves (the first refused ply is found and reported), and the game recounted by mates and stalemates alone: at
the final position, no legal move is a loss for the side to move as pyffish's `game_result`
scores it (checkmate and stalemate both lose in xiangqi), an immediate game end
(`is_immediate_game_end`) stands as pyffish scores it, and anything else is a draw (a
repetition, a count, the ply limit: none of them is decided on the board). Then it prints W/D/L
for player A, the pentanomial pair counts (pairs scoring 0, 1/2, 1, 3/2, 2 for A), the Elo with
its 95% interval and the SPRT's log-likelihood ratio (the arithmetic of scripts/sprt_reference.py,
which is independent of src/uci/sprt.rs), and every game where pyffish disagrees with the match's
own "mates" count (the `MatesResult` tag).

The PGN must carry the tags the match command writes: `Iccs` (the moves, ICCS, ranks 0-9),
`PlayerA` (`Red` or `Black`), `Round` (1-based: games 2k-1 and 2k are a pair), `MatesResult`,
`Ending`. Several files (the parts of one test, played with different `--seed`s) are counted
together, each file's rounds paired within it. Exit status: 0 when every move is legal and every game agrees, 1 otherwise, 2 on bad
input.
"""

import argparse
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pyffish as sf  # noqa: E402
from sprt_reference import llr  # noqa: E402

VARIANT = "xiangqi"
TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')


def read_games(path):
    """The tag dictionaries of the games in a PGN file, in file order."""
    games, cur, in_moves = [], None, False
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = TAG.match(line.strip())
            if m:
                if cur is None or in_moves or m.group(1) in cur:
                    cur = {}
                    games.append(cur)
                    in_moves = False
                cur[m.group(1)] = m.group(2).replace("\\\\", "\\")
            elif line.strip() and cur is not None:
                in_moves = True
    return games


def to_uci(iccs):
    """ICCS (`h2e2`, ranks 0-9) to pyffish's coordinates (`h3e3`, ranks 1-10)."""
    m = re.fullmatch(r"([a-i])([0-9])([a-i])([0-9])", iccs)
    if not m:
        raise ValueError(f"{iccs!r} is not an ICCS move")
    return f"{m[1]}{int(m[2]) + 1}{m[3]}{int(m[4]) + 1}"


def plays(start, moves):
    """The FEN after `moves`, or None when pyffish refuses one of them as illegal."""
    try:
        return sf.get_fen(VARIANT, start, moves)
    except (ValueError, SystemError):
        return None


def referee(game, start):
    """(result from Red's view: 1, 0.5, 0; why; the index of an illegal move or None)."""
    moves = [to_uci(t) for t in game.get("Iccs", "").split()]
    # pyffish refuses a move list with a move that is not among its legal moves (each call
    # costs milliseconds, so the whole list is tried at once, and a refused one is bisected).
    fen = plays(start, moves)
    if fen is None:
        lo, hi = 0, len(moves)  # moves[:lo] play, moves[:hi] do not
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (mid, hi) if plays(start, moves[:mid]) else (lo, mid)
        bad = game["Iccs"].split()[lo]
        return None, f"ply {lo + 1} ({bad}) is illegal under pyffish", lo
    red_to_move = fen.split()[1] == "w"
    if not sf.legal_moves(VARIANT, start, moves):
        value = sf.game_result(VARIANT, start, moves)
        why = "mate or stalemate"
    else:
        end, value = sf.is_immediate_game_end(VARIANT, start, moves)
        if not end:
            return 0.5, "not decided on the board", None
        why = "immediate game end"
    if value == 0:
        return 0.5, why + " (drawn)", None
    mover_wins = value > 0
    return (1.0 if mover_wins == red_to_move else 0.0), why, None


def from_pgn_result(r):
    return {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(r)


def elo(score):
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--sprt", default="0,10", help="ELO0,ELO1 (default 0,10)")
    ap.add_argument("--model", default="normalized", choices=["normalized", "logistic"])
    args = ap.parse_args()
    e0, e1 = (float(x) for x in args.sprt.split(","))

    games = []
    for part, path in enumerate(args.pgn):
        found = read_games(path)
        if not found:
            print(f"error: no games in {path}")
            return 2
        for g in found:
            g["_part"] = part
        games.extend(found)
    missing = [g.get("Round", "?") for g in games if "Iccs" not in g or "PlayerA" not in g]
    if missing:
        print(f"error: games without Iccs/PlayerA tags (rounds {', '.join(missing[:5])}): "
              "write the PGN with this build's `match --pgn`")
        return 2
    start = sf.start_fen(VARIANT)
    wdl = [0, 0, 0]
    by_round = {}
    illegal, disagree = [], []
    for g in games:
        red_score, why, bad = referee(g, start)
        rnd = int(g.get("Round", "0"))
        name = f"{args.pgn[g['_part']]}:{rnd}" if len(args.pgn) > 1 else str(rnd)
        if bad is not None:
            illegal.append((name, why))
            continue
        a_red = g["PlayerA"] == "Red"
        a = red_score if a_red else 1 - red_score
        wdl[{1.0: 0, 0.5: 1, 0.0: 2}[a]] += 1
        by_round[(g["_part"], rnd)] = a
        ours = from_pgn_result(g.get("MatesResult", ""))
        if ours is None or ours != red_score:
            disagree.append((name, g.get("Ending", "?"), g.get("MatesResult", "?"), red_score, why))

    pairs = [0] * 5
    for (part, rnd), a in by_round.items():
        if rnd % 2 == 1 and (part, rnd + 1) in by_round:
            pairs[round(2 * (a + by_round[(part, rnd + 1)]))] += 1
    n = sum(wdl)
    score = (wdl[0] + 0.5 * wdl[1]) / n if n else 0.5
    m = sum(pairs)
    interval = ""
    if m >= 2:
        pts = [k / 4 for k in range(5)]
        mean = sum(c * v for c, v in zip(pairs, pts)) / m
        var = sum(c * (v - mean) ** 2 for c, v in zip(pairs, pts)) / m
        se = math.sqrt(var / m)
        lo, hi = elo(mean - 1.959964 * se), elo(mean + 1.959964 * se)
        interval = f" [{lo:+.1f}, {hi:+.1f}] (95%, pentanomial)"
    print(f"referee: pyffish {sf.version()}, variant {VARIANT}, {len(games)} games in "
          f"{' '.join(args.pgn)}")
    print(f"W {wdl[0]} D {wdl[1]} L {wdl[2]} ({n} games) for A, score {100 * score:.1f}%, "
          f"Elo {elo(score):+.1f}{interval}")
    print(f"pairs by points for A (0, 1/2, 1, 3/2, 2): {' '.join(map(str, pairs))}")
    value = llr(pairs, e0, e1, args.model) if m else 0.0
    bound = math.log(0.95 / 0.05)
    verdict = "H1" if value >= bound else "H0" if value <= -bound else "inconclusive"
    print(f"sprt [{e0:g}, {e1:g}] {args.model}: LLR {value:.2f} (-2.94, 2.94): {verdict}")
    for rnd, why in illegal:
        print(f"illegal: game {rnd}: {why}")
    for rnd, ending, ours, theirs, why in disagree:
        print(f"disagree: game {rnd}: ours {ending} {ours}, pyffish "
              f"{ {1.0: '1-0', 0.5: '1/2-1/2', 0.0: '0-1'}[theirs]} ({why})")
    print(f"illegal moves: {len(illegal)}; games where pyffish disagrees with our mates count: "
          f"{len(disagree)}")
    return 1 if illegal or disagree else 0


if __name__ == "__main__":
    sys.exit(main())
