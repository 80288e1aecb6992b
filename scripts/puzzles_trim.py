#!/usr/bin/env python3
"""Check the puzzle set with an engine that is not ours, and trim it.

A puzzle is kept when, at every one of the solver's turns of its listed line, Fairy-Stockfish
(UCI, `UCI_Variant xiangqi`, MultiPV 2) agrees that the listed move is the one good move:

* its best move is the listed move;
* in a mate puzzle the best line mates in exactly the solver moves left (a faster mate means the
  listed line is not the shortest), and the second line does not mate at all (another first
  move that also mates is a second answer);
* in a material puzzle the second line is at least MARGIN centipawns worse than the best one
  (or the best line mates and the second does not).

  scripts/puzzles_trim.py check [--movetime 300] [--margin 200] FILE... > fsf.txt
      prints one line per puzzle: `id ok` or `id: why not`
  scripts/puzzles_trim.py trim --drop fsf.txt --drop ours.txt FILE...
      rewrites each FILE without the puzzles that any report says `id: ...` about; comments
      and the order of the kept lines stay as they are (ids never change)
  scripts/puzzles_trim.py trim --drop fsf-300.txt,fsf-3000.txt --drop ours.txt FILE...
      reports joined by commas are one check run again: for an id a later one names (`id ok`
      or `id: ...`), its verdict replaces the earlier ones' (a re-check at a longer budget)

Standard library only; the engine is Debian's /usr/games/fairy-stockfish (or $FSF).
"""

import argparse
import os
import subprocess
import sys


def puzzles(path):
    """(id, fen, moves, goal kind) for each puzzle line of a set file."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            fields = [x.strip() for x in s.split("|")]
            pid, fen, moves, goal = fields[0], fields[1], fields[2].split(), fields[3]
            yield pid, fen, moves, goal.split()[0]


def to_fsf(iccs):
    """ICCS (ranks 0-9) to Fairy-Stockfish's UCI (ranks 1-10): h2e2 -> h3e3."""
    return f"{iccs[0]}{int(iccs[1]) + 1}{iccs[2]}{int(iccs[3]) + 1}"


class Engine:
    def __init__(self, path, hash_mb=32):
        self.p = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name UCI_Variant value xiangqi")
        self.send(f"setoption name Hash value {hash_mb}")
        self.send("setoption name Threads value 1")
        self.send("setoption name MultiPV value 2")
        self.send("isready")
        self.wait("readyok")

    def send(self, cmd):
        self.p.stdin.write(cmd + "\n")

    def wait(self, token):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("the engine stopped")
            if line.startswith(token):
                return line

    def lines(self, fen, moves, movetime):
        """The two best lines' (first move, score) after the last completed depth.

        A score is ("mate", n) with n > 0 when the side to move mates, or ("cp", c)."""
        self.send("ucinewgame")
        self.send("isready")
        self.wait("readyok")
        tail = " moves " + " ".join(map(to_fsf, moves)) if moves else ""
        self.send(f"position fen {fen}{tail}")
        self.send(f"go movetime {movetime}")
        best = {}
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("the engine stopped")
            if line.startswith("bestmove"):
                break
            t = line.split()
            if not t or t[0] != "info" or "multipv" not in t or "pv" not in t:
                continue
            if "lowerbound" in t or "upperbound" in t:
                continue
            k = int(t[t.index("multipv") + 1])
            i = t.index("score")
            score = (t[i + 1], int(t[i + 2]))
            best[k] = (t[t.index("pv") + 1], score)
        return best.get(1), best.get(2)

    def close(self):
        self.send("quit")
        self.p.wait(timeout=5)


def value(score):
    kind, n = score
    if kind == "mate":
        return 100_000 - n if n > 0 else -100_000 - n
    return n


def judge(engine, fen, moves, goal, movetime, margin):
    """None when the puzzle holds, else why not."""
    total = (len(moves) + 1) // 2
    for j, i in enumerate(range(0, len(moves), 2)):
        first, second = engine.lines(fen, moves[:i], movetime)
        answer = to_fsf(moves[i])
        if first is None:
            return f"turn {j + 1}: no line"
        if first[0] != answer:
            return f"turn {j + 1}: best move {first[0]} {first[1]}, not {answer}"
        left = total - j
        s1 = first[1]
        s2 = second[1] if second else None
        second_mates = s2 is not None and s2[0] == "mate" and s2[1] > 0
        if goal == "mate":
            if s1[0] != "mate" or s1[1] <= 0:
                return f"turn {j + 1}: no mate seen ({s1[0]} {s1[1]})"
            if s1[1] < left:
                return f"turn {j + 1}: mate in {s1[1]}, shorter than the {left} listed"
            if s1[1] > left:
                return f"turn {j + 1}: mate in {s1[1]}, longer than the {left} listed"
            if second_mates:
                return f"turn {j + 1}: {second[0]} also mates (in {s2[1]})"
        else:
            if second_mates:
                return f"turn {j + 1}: {second[0]} mates (in {s2[1]})"
            if s2 is not None and not (s1[0] == "mate" and s1[1] > 0):
                gap = value(s1) - value(s2)
                if gap < margin:
                    return f"turn {j + 1}: {second[0]} only {gap} cp worse"
    return None


def check(args):
    engine = Engine(os.environ.get("FSF", "/usr/games/fairy-stockfish"))
    kept = dropped = 0
    for path in args.files:
        for pid, fen, moves, goal in puzzles(path):
            why = judge(engine, fen, moves, goal, args.movetime, args.margin)
            if why is None:
                kept += 1
                print(f"{pid} ok", flush=True)
            else:
                dropped += 1
                print(f"{pid}: {why}", flush=True)
    engine.close()
    print(
        f"# {kept + dropped} puzzles, {kept} kept, {dropped} dropped, "
        f"{args.movetime} ms a turn, margin {args.margin} cp",
        flush=True,
    )


def verdicts(report):
    """{id: True when the report says `id ok`, False when it says `id: why not`}."""
    out = {}
    with open(report, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                continue
            head = line.split(":", 1)[0].strip()
            if ":" in line and " " not in head:
                out[head] = False
            elif line.split()[1:] == ["ok"]:
                out[line.split()[0]] = True
    return out


def dropped(checks):
    """The ids to drop: those the last report naming them, in any one check, rejects."""
    drop = set()
    for check in checks:
        verdict = {}
        for report in check.split(","):
            verdict.update(verdicts(report))
        drop |= {pid for pid, ok in verdict.items() if not ok}
    return drop


def trim(args):
    drop = dropped(args.drop)
    for path in args.files:
        with open(path, encoding="utf-8") as f:
            text = f.readlines()
        out = [
            line
            for line in text
            if line.strip().startswith("#")
            or not line.strip()
            or line.split("|", 1)[0].strip() not in drop
        ]
        with open(path, "w", encoding="utf-8") as f:
            f.writelines(out)
        print(f"{path}: {len(text) - len(out)} dropped, {len(out)} lines left", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check", help="judge every puzzle with Fairy-Stockfish")
    c.add_argument("--movetime", type=int, default=300, help="ms per solver turn")
    c.add_argument("--margin", type=int, default=200, help="least gap in material puzzles (cp)")
    c.add_argument("files", nargs="+")
    t = sub.add_parser("trim", help="drop the puzzles the reports reject")
    t.add_argument("--drop", action="append", default=[], help="a report, or re-checks joined by commas (repeatable)")
    t.add_argument("files", nargs="+")
    args = ap.parse_args()
    check(args) if args.cmd == "check" else trim(args)


if __name__ == "__main__":
    main()
