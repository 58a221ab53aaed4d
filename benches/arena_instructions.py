"""The bot protocol's and the arena's work, for callgrind (instruction counts do not move with
the machine's load; BENCHMARKS.md, "Bring your own bot"). Run each mode for two counts and divide
the difference in instructions by the difference in decisions (or deals), which cancels start-up
and the engine's table build (with ``OPENBLAS_NUM_THREADS=1``: numpy's idle OpenBLAS threads
spin, and callgrind counts them, ±1.5k instructions a decision):

    valgrind --tool=callgrind python benches/arena_instructions.py process 2      # then 12 hands
    valgrind --tool=callgrind python benches/arena_instructions.py in-process 2   # then 12 hands
    valgrind --tool=callgrind python benches/arena_instructions.py arena 100      # then 1100 deals
    valgrind --tool=callgrind python benches/arena_instructions.py compare 100    # then 1100 deals

``process``: chengdu hands played by four process bots answering at once with their first legal
action (tests/bots/zoo.py ``echo``; callgrind follows only the host, not the bots);
``in-process``: the same choices made in-process. ``arena``/``compare``: greedy vs random on the
same deals, ``xueliu.arena`` against ``xueliu.compare_bots``. Each run prints its decisions (or
deals) on stderr; callgrind prints "Collected : N" instructions.
"""

from __future__ import annotations

import sys
from pathlib import Path

import xueliu
from xueliu.players import InProcess, ProcessBot, play_hand

ZOO = str(Path(__file__).resolve().parents[1] / "tests" / "bots" / "zoo.py")


def first_legal(game: xueliu.Game, seat: int) -> xueliu.Action:
    return game.legal_actions(seat)[0]


def hands(players: list, count: int) -> int:
    """Plays ``count`` chengdu hands; the decisions made."""
    for h in range(count):
        play_hand(xueliu.Game("chengdu", seed=h), players)
    return sum(p.counts.decisions for p in players)


if __name__ == "__main__":
    mode, count = sys.argv[1], int(sys.argv[2])
    xueliu.simulate(0, "chengdu")  # the engine's tables, built before either count
    if mode == "process":
        bots = [ProcessBot([sys.executable, ZOO, "echo"]) for _ in range(4)]
        print(hands(bots, count), file=sys.stderr)
        for bot in bots:
            bot.close()
    elif mode == "in-process":
        print(hands([InProcess(first_legal) for _ in range(4)], count), file=sys.stderr)
    elif mode == "arena":
        xueliu.arena(["greedy", "random"], count, "chengdu", seed=1)
        print(count, file=sys.stderr)
    else:
        xueliu.compare_bots("greedy", "random", count, "chengdu", seed=1, threads=1)
        print(count, file=sys.stderr)
