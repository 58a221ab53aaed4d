"""The `xueliu` command: rules, replay and play (through a pseudo-terminal), errors as one line."""

from __future__ import annotations

import importlib.metadata
import json
import math
import random
import re
import statistics
import sys
from collections import Counter

import pytest
from rich.cells import cell_len

import xueliu
from xueliu import _presets as presets
from xueliu import cli
from xueliu._terminal import tiles
from xueliu._words import ENGLISH
from xueliu.reference.rng import SplitMix64

pexpect = pytest.importorskip("pexpect")


def run(capsys, *args: str) -> tuple[int, str, str]:
    """Runs `xueliu ARGS` in this process: (exit status, stdout, stderr)."""
    with pytest.raises(SystemExit) as exit_:
        cli.main(list(args))
    out, err = capsys.readouterr()
    return exit_.value.code, out, err


def random_game(rules: str, seed: int, claims: float = 0.0) -> xueliu.Game:
    """A game played to the end by random legal actions; with probability ``claims`` a seat
    that may win, pong, kong or swap does one of those."""
    game = xueliu.Game(rules, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        wanted = [a for a in legal if a.kind in ("kong", "pong", "swap", "win")]
        game.act(seat, rng.choice(wanted if wanted and rng.random() < claims else legal))
    return game


def write_log(path, game: xueliu.Game) -> None:
    path.write_text("".join(json.dumps(e) + "\n" for e in game.events), encoding="utf-8")


def assert_one_line_error(code: int, err: str, *words: str) -> None:
    assert code != 0
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert err.startswith("xueliu: error: ")
    for word in words:
        assert word in err, err


# -------------------------------------------------------------------------------- --help, rules


@pytest.mark.parametrize("command", [[], ["rules"], ["replay"], ["play"]])
def test_help_everywhere(capsys, command):
    code, out, _ = run(capsys, *command, "--help")
    assert code == 0 and out.startswith("Usage: xueliu")


def test_bare_xueliu_prints_the_help(capsys):
    code, out, _ = run(capsys)
    assert code == 0 and all(c in out for c in ("simulate", "play", "replay", "rules"))


def test_python_dash_m_runs_the_command():
    child = pexpect.spawn(sys.executable, ["-m", "xueliu", "rules", "chengdu"], encoding="utf-8", timeout=60)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and "kong_flower_fan" in child.before


def test_version_is_the_packages(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out == f"xueliu {xueliu.__version__}\n"
    assert re.fullmatch(r"\d+\.\d+\.\d+.*", xueliu.__version__)
    assert xueliu.__version__ == importlib.metadata.version("xueliu")


def test_help_documents_the_exit_codes(capsys):
    out = run(capsys, "--help")[1]
    assert "Exit status: 0" in out and "1 the engine" in out and "2 a bad option" in out


def test_rules_describes_every_preset_and_groups_every_option(capsys):
    """Each preset in one line, then the options in plain-named groups, every preset's value in
    each row (side by side when the width allows); no API name is needed to read it."""
    cli._all_presets(cli.term.console(True, width=400), True)
    out = capsys.readouterr().out
    for name in xueliu.Rules.presets():
        start = presets.DESCRIPTIONS[name].split()[0]
        assert re.search(rf"^\| {name} +\| {re.escape(start)}", out, re.M), name
    for group, rows in presets.GROUPS:
        assert group in out
        for key, label in rows:
            values = [presets.show(xueliu.Rules.preset(n).to_dict()[key]) for n in xueliu.Rules.presets()]
            cells = [c.strip() for c in re.search(rf"^\| {re.escape(label)} +\|(.*)\|$", out, re.M)[1].split("|")]
            assert all(v.startswith(c) for v, c in zip(values, cells)) and len(cells) == len(values), (label, cells)


@pytest.mark.parametrize("columns", [80, 100, 120])
def test_rules_fits_the_terminal_without_breaking_words(columns):
    """At 80, 100 or 120 columns every table fits, every preset name and value stays whole, and
    every preset's column is shown for every group (side by side, or over several tables)."""
    child = pexpect.spawn(
        sys.executable, ["-m", "xueliu", "rules"], encoding="utf-8", timeout=60, dimensions=(50, columns)
    )
    child.expect(pexpect.EOF)
    child.close()
    lines = re.sub(r"\x1b\[[0-9;]*m", "", child.before).splitlines()
    assert child.exitstatus == 0 and max(map(cell_len, lines)) <= columns
    tops = [line for line in lines if line.startswith("╭")]
    assert all(line.rstrip().endswith("╮") for line in tops)
    words = {
        w
        for _, rows in presets.GROUPS
        for key, _ in rows
        for n in xueliu.Rules.presets()
        for w in presets.show(xueliu.Rules.preset(n).to_dict()[key]).split()
    }
    cells, headers, in_group = set(), [], False
    for line in lines:
        if line.startswith(("│ option ", "│ pattern ")):
            headers.append(line)
        in_group = line.startswith("│ option ") or (in_group and not line.startswith("╰"))
        if in_group and line.startswith("│ ") and not line.startswith("│ option "):
            cells.update(w for cell in line.split("│")[2:] for w in cell.split())
    shown = [name for h in headers for name in h.split("│")[2:-1]]
    assert sorted(n.strip() for n in shown) == sorted(xueliu.Rules.presets() * (len(presets.GROUPS) + 1))
    assert cells <= words | {str(n) for n in range(20)}, cells - words


def test_rules_of_one_preset_keeps_api_names_whole_at_80_columns():
    child = pexpect.spawn(
        sys.executable, ["-m", "xueliu", "rules", "yaoji"], encoding="utf-8", timeout=60, dimensions=(50, 80)
    )
    child.expect(pexpect.EOF)
    child.close()
    lines = re.sub(r"\x1b\[[0-9;]*m", "", child.before).splitlines()
    assert child.exitstatus == 0 and max(map(cell_len, lines)) <= 80
    groups = lines[: next(i for i, line in enumerate(lines) if line.startswith("Pattern fan"))]
    names = {line.split("│")[3].strip() for line in groups if line.count("│") == 4} - {"API name", ""}
    assert names == {k for k in xueliu.Rules.preset("yaoji").to_dict() if k not in ("preset", "fan")}


@pytest.mark.parametrize("preset", ["chengdu", "xuezhan", "dashiyou"])
def test_rules_of_one_preset_shows_its_values_fan_and_settlement(capsys, preset):
    code, out, _ = run(capsys, "rules", preset, "--plain")
    assert code == 0
    rules = xueliu.Rules.preset(preset)
    assert out.startswith(f"{preset}: {presets.DESCRIPTIONS[preset][:40]}")
    groups = out[: out.index("Pattern fan")]
    rows: dict[str, str] = {}
    last = ""
    for line in re.findall(r"^\| .+ \|$", groups, re.M):  # a wrapped value goes on under its row
        _, value, key = (cell.strip() for cell in line[1:-1].split("|"))
        if key == "API name":
            last = ""
        elif key:
            rows[key], last = value, key
        elif value:
            rows[last] += " " + value
    expected = {k: presets.show(v) for k, v in rules.to_dict().items() if k not in ("preset", "fan")}
    assert rows == expected
    fans = dict(re.findall(r"^\| ([a-z_0-9]+) \S+ +\| (\d+) +\| \d+ +\|$", out, re.M))
    assert fans == {k: str(v) for k, v in rules.fan.items() if v is not None}
    settlement = out[out.index("Settlement:") :]
    assert f"3 fan {rules.points(3)}" in settlement
    assert ("杠进杠出" in settlement) == (rules.kong_fan == "win_and_loss")
    assert ("补差价" in settlement) == rules.ready_difference and ("退税" in settlement) == rules.tax_refund


@pytest.mark.parametrize(
    "args, words",
    [
        (["rules", "nope"], ["unknown preset", "chengdu"]),
        (["play", "--rules", "nope"], ["unknown preset"]),
        (["play", "--seat", "7"], ["--seat", "--help"]),
        (["play", "--bots", "a,b"], ["three"]),
        (["play", "--bots", "nobot"], ["nobot", "greedy"]),
        (["nosuch"], ["No such command"]),
        (["replay", "/nonexistent/game.jsonl"], ["cannot read", "/nonexistent/game.jsonl"]),
    ],
)
def test_errors_are_one_line_and_a_nonzero_exit(capsys, args, words):
    assert_one_line_error(*run(capsys, *args)[::2], *words)


# ----------------------------------------------------------------------------------- replay


@pytest.mark.parametrize("rules, must_see", [("chengdu_xueliu", "WINS"), ("yaoji", "幺鸡换")])
def test_replay_shows_each_event_payment_and_the_final_hands(capsys, tmp_path, rules, must_see):
    game = next(
        g
        for g in (random_game(rules, s, claims=0.7) for s in range(50))
        if g.wins and any(e["type"] == "swap" for e in g.events) == (rules == "yaoji")
    )
    write_log(tmp_path / "game.jsonl", game)
    code, out, _ = run(capsys, "replay", str(tmp_path / "game.jsonl"), "--no-step", "--plain")
    assert code == 0
    payments = [e for e in game.events if e["type"] == "payment"]
    said = re.findall(r"^  \w+ pays \w+ \d+ \((.+)\)$", out, re.M)  # each reason in words
    assert said == [ENGLISH.name("reason", p["reason"]) for p in payments]
    assert out.count("WINS") == len(game.wins)
    assert "{" not in out and must_see in out  # every event has its sentence
    final = out[out.rindex("Hand over") :]
    wilds = game.events[0]["rules"]["wilds"]  # 幺鸡: wilds are shown apart, starred
    for s in range(4):
        assert tiles(game.hand(s), wilds=wilds).plain in final


def test_replay_steps_turn_by_turn_and_quits(capsys, tmp_path, monkeypatch):
    write_log(tmp_path / "game.jsonl", random_game("chengdu", 5))
    answers = iter(["", "", "q"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    code, out, _ = run(capsys, "replay", str(tmp_path / "game.jsonl"), "--step", "--plain")
    assert code == 0
    assert out.count(" draws ") == 2 and "Hand over" not in out


@pytest.mark.parametrize(
    "content, words",
    [
        ('{"type": "start"\n', ["line 1", "not JSON"]),
        ("", ["no events"]),
        ('{"type": "start"}\n', ["seed"]),
    ],
)
def test_replay_refuses_bad_logs_in_one_line(capsys, tmp_path, content, words):
    (tmp_path / "bad.jsonl").write_text(content, encoding="utf-8")
    assert_one_line_error(*run(capsys, "replay", str(tmp_path / "bad.jsonl"))[::2], *words)


def test_replay_refuses_a_tampered_log(capsys, tmp_path):
    game = random_game("chengdu", 6)
    events = game.events
    discard = next(i for i, e in enumerate(events) if e["type"] == "discard")
    events[discard]["tile"] = "9s" if events[discard]["tile"] != "9s" else "1m"
    (tmp_path / "bad.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    code, _, err = run(capsys, "replay", str(tmp_path / "bad.jsonl"))
    assert_one_line_error(code, err, f"bad.jsonl line {discard + 1} is not what the engine writes")
    (tmp_path / "spaced.jsonl").write_text("\n" + "".join(json.dumps(e) + "\n\n" for e in events))
    code, _, err = run(capsys, "replay", str(tmp_path / "spaced.jsonl"))  # blank lines are counted
    assert_one_line_error(code, err, f"spaced.jsonl line {2 * discard + 2} is not", f"lines 1-{2 * discard}")


@pytest.mark.parametrize("cut", ["events", "mid-line"])
def test_replay_of_a_cut_log_says_it_is_incomplete_and_where_it_stops(capsys, tmp_path, cut):
    """A log cut short (a hand stopped, a file cut off) is replayed as far as the engine confirms
    it; then one line says it is incomplete and names the line it stops at."""
    game = random_game("chengdu", 5)
    lines = [json.dumps(e) + "\n" for e in game.events]
    kept = len(lines) // 2
    text = "".join(lines[:kept]) + (lines[kept][:20] if cut == "mid-line" else "")
    (tmp_path / "cut.jsonl").write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "replay", str(tmp_path / "cut.jsonl"), "--no-step", "--plain")
    assert_one_line_error(code, err, "is incomplete", f"stops at line {kept}")
    assert "edited" not in err and "Hand over" not in out
    confirmed = int(re.search(r"lines 1-(\d+) replayed", err)[1])
    assert kept - 10 < confirmed <= kept  # at most the discard window it stops in is unconfirmed
    assert out.count(" discards ") == sum(e["type"] == "discard" for e in game.events[:confirmed])


# ------------------------------------------------------------------------------------- play


def play_in_terminal(args: list[str], answers, exchange=()) -> str:
    """Runs `xueliu play ARGS` in a pseudo-terminal, answering each move prompt from `answers`
    and the exchange's from `exchange`, then Enter (the suggested three)."""
    child = pexpect.spawn(
        sys.executable, ["-m", "xueliu", "play", *args], encoding="utf-8", timeout=60, dimensions=(50, 160)
    )
    transcript, exchange = [], iter(exchange)
    while True:
        index = child.expect([r"Your move \[1-\d+\]: ", r"Give three \[\w+\]: ", pexpect.EOF])
        transcript.append(child.before + (child.after if index < 2 else ""))
        if index == 2:
            break
        child.sendline(next(answers) if index == 0 else next(exchange, ""))
    child.close()
    assert child.exitstatus == 0, "".join(transcript)[-2000:]
    return "".join(transcript)


def test_play_a_whole_hand_in_a_terminal(tmp_path):
    """Through a pty: the exchange given by typed tiles and by places (refusals say the engine's
    reason), what was given and received and from whom, the void phase, moves by number and by
    name (wrong answers re-asked, with the engine's reason), the payments and the settlement
    table; the log replays in the engine."""
    log = tmp_path / "game.jsonl"

    def answers():
        yield "99"  # out of range: asked again
        yield "banana"  # not an action: the parser's reason
        yield "discard 9s"  # not a decision of the void phase: the engine's reason
        while True:
            yield "1"

    out = play_in_terminal(
        ["--rules", "xuezhan", "--seed", "12", "--plain", "--log", str(log)],
        answers(),
        exchange=["11s", "1 2 2", "1 2 3"],
    )
    assert "Please type a number from 1 to" in out
    assert "Not possible: an exchange gives exactly three tiles, got 2" in out
    assert "Please give three different places" in out
    assert "Not possible: cannot read action" in out and "is not legal for seat 0" in out
    events = [json.loads(line) for line in log.read_text().splitlines()]
    game = xueliu.Game.from_events(events)
    assert game.is_over
    dealt = next(e["tiles"] for e in events if e["type"] == "deal" and e["seat"] == 0)
    exchange = next(e for e in events if e["type"] == "exchange")
    assert exchange["given"][0] == sorted(dealt[:3], key=lambda t: xueliu.Tile(t).index)  # places 1 2 3
    step = {"counterclockwise": 1, "clockwise": 3, "opposite": 2}[exchange["direction"]]
    assert exchange["received"][step] == exchange["given"][0]  # the receiver is who the screen names
    assert (
        f"You give {tiles(exchange['given'][0]).plain} to {cli.WINDS[step]} and receive "
        f"{tiles(exchange['received'][0]).plain} from {cli.WINDS[-step % 4]}"
    ) in out
    assert "declares void" in out and "Settlement" in out and "Hand over" in out
    for payment in (e for e in events if e["type"] == "payment"):
        assert f" {payment['amount']} ({ENGLISH.name('reason', payment['reason'])})" in out
    assert "seed hidden" not in out and "1 points" not in out and "[[" not in out


def test_play_is_deterministic_and_fancy_mode_plays_the_same_game(tmp_path):
    """Same seed and answers, plain and coloured: the same log, byte for byte."""
    logs = []
    for i, style in enumerate([["--plain"], []]):
        log = tmp_path / f"game{i}.jsonl"
        answers = iter(lambda: "1", None)
        play_in_terminal(["--rules", "chengdu", "--seed", "3", "--seat", "2", "--log", str(log), *style], answers)
        logs.append(log.read_text())
    assert logs[0] == logs[1]


def test_play_a_match_shows_totals_and_the_next_dealer_and_replays(tmp_path, capsys):
    """`play --hands 2`: between hands the totals and the next dealer; the match log it writes
    replays in the engine and in `xueliu replay`."""
    log = tmp_path / "match.json"
    out = play_in_terminal(
        ["--rules", "chengdu", "--seed", "4", "--hands", "2", "--plain", "--log", str(log)], iter(lambda: "1", None)
    )
    match = xueliu.Match.from_log(json.loads(log.read_text()))
    assert match.is_over and match.hands == 2
    assert "Hand 1 of 2" in out and "Hand 2 of 2" in out
    assert f"Next hand: {cli.WINDS[match.dealers[1]]} deals" in out
    assert "After 2 of 2 hands" in out
    assert re.search(r"total\W+" + r"\W+".join(re.escape(f"{p:+d}") for p in match.totals), out)
    code, shown, _ = run(capsys, "replay", str(log), "--no-step", "--plain")
    assert code == 0 and "Hand 2 of 2" in shown and "After 2 of 2 hands" in shown


def test_play_quits_cleanly_on_end_of_input():
    child = pexpect.spawn(
        sys.executable, ["-m", "xueliu", "play", "--seed", "1", "--plain"], encoding="utf-8", timeout=60
    )
    child.expect(r"Give three")
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus != 0
    assert "Traceback" not in child.before and "interrupted" in child.before


# --------------------------------------------------------------------------------- simulate

SIMULATE = [
    "simulate",
    "--rules",
    "chengdu",
    "--games",
    "300",
    "--bots",
    "greedy,greedy,random,random",
    "--seed",
    "1",
    "--threads",
    "2",
    "--plain",
]


def test_simulate_summary_json_and_logs(capsys, tmp_path):
    """The summary holds the numbers counted from the same hands played one by one through `Game`
    (`counted_summary`, which shares no code with the CLI's tallies), and each written log replays
    in the engine to its hand's points."""
    code, out, err = run(capsys, *SIMULATE, "--json", str(tmp_path / "s.json"), "--log", str(tmp_path / "logs"))
    assert code == 0, err
    summary = json.loads((tmp_path / "s.json").read_text())
    bots = ["greedy", "greedy", "random", "random"]
    expected, scores = counted_summary("chengdu", bots, seed=1, games=300)
    assert {k: summary[k] for k in ("rules", "bots", "seed", "threads", "where", "sharded")} == {
        "rules": "chengdu",
        "bots": bots,
        "seed": 1,
        "threads": 2,
        "where": "threads 2",
        "sharded": False,
    }
    assert {k: summary[k] for k in ("games", "win_kinds", "fan_histogram")} == {
        k: expected[k] for k in ("games", "win_kinds", "fan_histogram")
    }
    assert summary["mean_draws"] == pytest.approx(expected["mean_draws"])
    assert [seat["wins"] for seat in summary["seats"]] == expected["wins"]
    assert sum(expected["wins"]) > 0 and len(expected["win_kinds"]) >= 2 and len(expected["fan_histogram"]) >= 2
    for seat, mean, (low, high) in zip(summary["seats"], expected["mean_points"], expected["ci"]):
        assert (seat["mean_points"], seat["ci_low"], seat["ci_high"]) == pytest.approx((mean, low, high))
        assert f"{mean:+.3f}" in out
    logs = sorted((tmp_path / "logs").iterdir())
    assert [p.name for p in logs[:2]] == ["game-000000.jsonl", "game-000001.jsonl"] and len(logs) == 300
    for i in (0, 17, 299):
        game = xueliu.Game.from_events([json.loads(line) for line in logs[i].read_text().splitlines()])
        assert game.scores == scores[i]


def counted_summary(rules: str, bots: list[str], *, seed: int, games: int) -> tuple[dict, list[list[int]]]:
    """What `simulate` should report, counted by hand: game `i` dealt from `game_seed(seed, i)`
    and seat `s`'s bot seeded `bot_seed(game_seed, s)` (docs/bots.md, "Seeds"; computed with the
    reference's SplitMix64), each hand played through `Game` and read from its event log: wins
    by seat and kind (杠上花, a self-draw on a kong's replacement tile; 杠上炮, a win on the
    discard that follows one), the fan histogram, the draws, and each seat's mean points with a
    95% normal interval from `statistics`. Also each hand's points."""
    kinds = Counter(dict.fromkeys(WIN_KINDS, 0))  # every kind, as docs/bots.md lists them
    fans: Counter[str] = Counter()
    wins, draws, scores = [0] * 4, 0, []
    for i in range(games):
        dealt = SplitMix64((seed + i * GAMMA) & MASK).next_u64()
        players = [
            xueliu.Bot(name, seed=SplitMix64(((dealt ^ BOT_SALT) + s * GAMMA) & MASK).next_u64())
            for s, name in enumerate(bots)
        ]
        game = xueliu.Game(rules, seed=dealt)
        while not game.is_over:
            seat = game.to_act()[0]
            game.act(seat, players[seat].choose(game, seat))
        events = game.events
        last_draw: dict[int, dict] = {}
        for at, event in enumerate(events):
            if event["type"] == "draw":
                draws += 1
                last_draw[event["seat"]] = event
            elif event["type"] == "win":
                wins[event["seat"]] += 1
                fans[str(event["score"]["fan"])] += 1
                kinds[win_kind(event, events[:at], last_draw)] += 1
        scores.append(game.scores)
    by_seat = list(zip(*scores))
    means = [statistics.mean(points) for points in by_seat]
    halves = [1.96 * statistics.stdev(points) / math.sqrt(games) for points in by_seat]
    return {
        "games": games,
        "wins": wins,
        "win_kinds": dict(kinds),
        "fan_histogram": dict(sorted(fans.items(), key=lambda kv: int(kv[0]))),
        "mean_draws": draws / games,
        "mean_points": means,
        "ci": [(m - h, m + h) for m, h in zip(means, halves)],
    }, scores


GAMMA, BOT_SALT, MASK = 0x9E3779B97F4A7C15, 0xB075B075B075B075, (1 << 64) - 1
WIN_KINDS = ("self_draw", "kong_flower", "discard", "kong_shot", "robbed_kong")


def win_kind(win: dict, before: list[dict], last_draw: dict[int, dict]) -> str:
    """A win's kind as `simulate` counts them, told from the log before it."""
    if win["kind"] == "self_draw":
        return "kong_flower" if last_draw[win["seat"]]["replacement"] else "self_draw"
    if win["kind"] == "robbed_kong":
        return "robbed_kong"
    discard = max(at for at, e in enumerate(before) if e["type"] == "discard")
    after_kong = before[discard - 1]["type"] == "draw" and before[discard - 1]["replacement"]
    return "kong_shot" if after_kong else "discard"


TIMINGS = ("seconds", "games_per_second", "table_seconds", "wall_seconds", "wall_games_per_second")


def untimed(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in TIMINGS}


def test_simulate_over_processes_gives_the_same_summary_and_logs(capsys, tmp_path):
    """Two worker processes play shards of the same games: the summary but for the timings and
    where it ran, and every log, are those of one process."""
    one, two = tmp_path / "one", tmp_path / "two"
    assert run(capsys, *SIMULATE, "--json", str(tmp_path / "one.json"), "--log", str(one))[0] == 0
    code, out, err = run(capsys, *SIMULATE, "--processes", "2", "--json", str(tmp_path / "two.json"), "--log", str(two))
    assert code == 0, err
    assert "Processes(2)" in out and "per process" in out
    a, b = (json.loads((tmp_path / f"{d}.json").read_text()) for d in ("one", "two"))
    assert b["where"] == "Processes(2)" and b["sharded"]
    assert untimed(a) | {"where": b["where"], "sharded": True} == untimed(b)
    logs = sorted(p.name for p in one.glob("game-*.jsonl"))
    assert len(logs) == 300 and logs == sorted(p.name for p in two.glob("game-*.jsonl"))
    assert all((one / n).read_bytes() == (two / n).read_bytes() for n in logs)


def test_simulate_refuses_bad_options_in_one_line(capsys):
    assert_one_line_error(
        *run(capsys, "simulate", "--bots", "greedy,nobot,random,random", "--games", "4")[::2], "nobot"
    )
    assert_one_line_error(*run(capsys, "simulate", "--bots", "greedy,random")[::2], "four")
    assert_one_line_error(*run(capsys, "simulate", "--rules", "nope")[::2], "unknown preset")
    assert_one_line_error(*run(capsys, "simulate", "--games", "0")[::2], "--games")
    assert_one_line_error(*run(capsys, "simulate", "--processes", "2", "--ray")[::2], "give one")
    assert_one_line_error(*run(capsys, "simulate", "--json", "/nonexistent/s.json")[::2], "folder")


def test_simulate_draws_a_live_progress_bar_in_a_terminal():
    child = pexpect.spawn(
        sys.executable,
        ["-m", "xueliu", "simulate", "--games", "3000", "--threads", "1"],
        encoding="utf-8",
        timeout=120,
        dimensions=(40, 120),
    )
    child.expect(r"games/s")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Fan histogram" in child.before and "Win kinds" in child.before


def test_simulate_json_dash_writes_the_summary_to_stdout(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *SIMULATE[:3], "--games", "20", "--plain", "--json", "-")
    assert code == 0, err
    summary = json.loads(out)  # stdout holds the JSON alone; the tables went to stderr
    assert summary["games"] == 20 and "Fan histogram" in err
    assert not (tmp_path / "-").exists()


def test_serve_on_a_busy_port_fails_in_one_line(tmp_path):
    """Issue 30, item 13: a port another program listens on is one line and exit status 1."""
    pytest.importorskip("uvicorn")
    import socket
    import subprocess

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "xueliu", "serve", "--port", str(port), "--db", str(tmp_path / "t.db")],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 1, done.stderr
    assert_one_line_error(1, done.stderr, f"cannot listen on 127.0.0.1:{port}", "--port")


@pytest.mark.parametrize("preset", ["mil_sbr_2025", "tfmj_2024"])
def test_the_competition_presets_play_and_simulate(capsys, tmp_path, preset):
    """Issue 28: a match of each competition rulebook in `xueliu play`, and bots in `simulate`."""
    log = tmp_path / "match.json"
    out = play_in_terminal(
        ["--rules", preset, "--seed", "2", "--hands", "2", "--plain", "--log", str(log)], iter(lambda: "1", None)
    )
    written = json.loads(log.read_text())
    match = xueliu.Match.from_log(written)
    assert match.is_over and written["rules"]["preset"] == preset and "After 2 of 2 hands" in out
    code, out, err = run(
        capsys,
        "simulate",
        "--rules",
        preset,
        "--games",
        "40",
        "--bots",
        "greedy,random,greedy,random",
        "--seed",
        "1",
        "--plain",
    )
    assert code == 0 and "40" in out, err
