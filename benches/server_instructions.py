"""The table core's work per decision, for callgrind (instruction counts do not move with the
machine's load). Plays ``TABLES`` tables of ``HANDS`` hands through the server with no storage and
no network (benches/server_load.py's ``core_run``); run it for two hand counts and divide the
difference in instructions by the difference in decisions, which cancels start-up and the
engine's table build:

    valgrind --tool=callgrind python benches/server_instructions.py 2 1
    valgrind --tool=callgrind python benches/server_instructions.py 2 4

Each run prints its decisions on stderr; callgrind prints "Collected : N" instructions.
"""

from __future__ import annotations

import sys

import server_load

from xueliu.server import FakeClock, Server

if __name__ == "__main__":
    tables, hands = (int(a) for a in sys.argv[1:3])
    Server(server_load.NoStorage(), FakeClock()).restore()  # builds the engine's tables first
    print(server_load.core_run("no_storage", tables, hands, "")["decisions"], file=sys.stderr)
