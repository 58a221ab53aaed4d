"""Smoke test of an installed xueliu (CI runs it from the built wheel, with no Rust toolchain on
the PATH): the compiled module loads, a hand plays to the end, scores add up, the command runs,
and the web table's files (python/xueliu/server/static/) are in the wheel."""

import json
import subprocess
import sys

import xueliu

assert xueliu.__file__ and "site-packages" in xueliu.__file__, xueliu.__file__  # the wheel, not the tree
assert xueliu.is_win("23445677m345789p") and xueliu.waits("12334577m23345p") == [xueliu.Tile("1p"), xueliu.Tile("4p")]
game, bot = xueliu.Game("yaoji", seed=7), xueliu.Bot("greedy")
while not game.is_over:
    seat = game.to_act()[0]
    game.act(seat, bot.choose(game, seat))
assert sum(game.scores) == 0 and xueliu.Game.from_events(game.events).scores == game.scores
result = xueliu.simulate(200, "chengdu", seed=1)
assert result.games == 200 and sum(result.wins) > 0

xueliu_cli = [sys.executable, "-m", "xueliu"]
version = subprocess.run([*xueliu_cli, "--version"], check=True, capture_output=True, text=True).stdout
assert version == f"xueliu {xueliu.__version__}\n", version
summary = subprocess.run(
    [*xueliu_cli, "simulate", "--games", "100", "--json", "-"], check=True, capture_output=True, text=True
).stdout
assert json.loads(summary)["games"] == 100
rules = subprocess.run([*xueliu_cli, "rules", "chengdu"], check=True, capture_output=True, text=True).stdout
assert "Settlement" in rules
# the table server's page ships inside the wheel (its static files are package data)
from importlib.resources import files  # noqa: E402

static = files("xueliu").joinpath("server", "static")
for name in ("index.html", "style.css", "js/app.js", "js/table.js", "js/fold.js"):
    assert static.joinpath(*name.split("/")).is_file(), name
print(f"smoke test passed: xueliu {xueliu.__version__} from {xueliu.__file__}")
