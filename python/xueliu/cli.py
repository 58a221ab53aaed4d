"""The ``xueliu`` command: simulate many games, play one in the terminal, replay a log, show rules.

Built on Click (commands, options, ``--help``) and Rich (tables, colours, the progress bar).
Every failure the user can cause — a bad preset, file or option — ends as one line on stderr and
a non-zero exit status, never a traceback (:func:`main`).
"""

from __future__ import annotations

import errno
import functools
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, NoReturn, Optional, Sequence, Union

import click
import numpy as np
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from . import _presets as presets
from . import _terminal as term
from ._cli_shards import shard_executor, shard_options
from ._play import Screen, play_hand
from ._version import __version__
from ._words import ENGLISH, LANGUAGES, Words, language_of
from ._xueliu import Bot, Game, Match, Rules, SimulationResult, XueliuError
from ._xueliu import simulate as run_simulation
from .shards import in_order, simulate_shards

WINDS = ("East", "South", "West", "North")
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
PLAIN_HELP = "Plain text, no colours (the default when stdout is not a terminal)."
EXIT_CODES = """\b
Exit status: 0 done; 1 the engine or a file refused something (an unknown preset or
bot, a bad or incomplete log: the message says which); 2 a bad option or argument; 130
interrupted (Ctrl-C, or end of input in `play`); 70 a bug (please report it)."""


@click.group(context_settings=CONTEXT, invoke_without_command=True, epilog=EXIT_CODES)
@click.version_option(__version__, "-V", "--version", prog_name="xueliu", message="%(prog)s %(version)s")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """xueliu: a fast, exact engine for Sichuan mahjong (血战到底, 血流成河).

    In 血战到底 (xuezhan) a winner leaves the hand and the rest play on until three have won or the
    wall is empty; in 血流成河 (xueliu) a winner stays in and may win again until the wall is empty.
    Every rule preset is one or the other (`xueliu rules`). Run `xueliu COMMAND --help` for a
    command's options.
    """
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


from ._arena_cli import arena as _arena_command  # noqa: E402  (registered beside the others)

cli.add_command(_arena_command)
from ._ladder_cli import ladder_bot as _ladder_bot_command  # noqa: E402
from ._ladder_cli import ladder_client as _ladder_client_command  # noqa: E402

cli.add_command(_ladder_bot_command)
cli.add_command(_ladder_client_command)


def main(argv: Optional[Sequence[str]] = None) -> None:
    """Runs the command line. Any error is one line on stderr and a non-zero exit status: 2 for
    a usage error, 130 when interrupted (Ctrl-C, or end of input in `play`), 70 for a bug, else 1."""
    try:
        code = cli.main(args=argv, prog_name="xueliu", standalone_mode=False)
    except (click.exceptions.Abort, KeyboardInterrupt):
        _fail("interrupted", 130)
    except click.UsageError as e:
        hint = f" (see '{e.ctx.command_path} --help')" if e.ctx else ""
        _fail(e.format_message() + hint, e.exit_code)
    except click.ClickException as e:
        _fail(e.format_message(), e.exit_code)
    except (XueliuError, OSError) as e:
        _fail(str(e), 1)
    except Exception as e:  # a bug: still one line, with what to report
        _fail(f"internal error ({type(e).__name__}: {e}); please report it", 70)
    except BaseException as e:  # PyO3's PanicException derives from BaseException
        if type(e).__name__ != "PanicException":
            raise
        _fail(f"internal error (a Rust panic: {e}); please report it", 70)
    sys.exit(code if isinstance(code, int) else 0)


def _fail(message: str, code: int) -> None:
    click.echo(f"xueliu: error: {message}", err=True)
    sys.exit(code)


def _plain(plain: bool) -> bool:
    return plain or not sys.stdout.isatty()


# ------------------------------------------------------------------------------------ rules


@cli.command()
@click.argument("preset", required=False)
@click.option("--plain", is_flag=True, help=PLAIN_HELP)
def rules(preset: Optional[str], plain: bool) -> None:
    """Show the rule presets: each in one line, then their options side by side, grouped; or one
    PRESET's options (with the API's names), its fan table and its settlement in words.

    Option names are the API's (Rules.preset(name, option=value)); docs/rules-implemented.md explains each.
    The tables fit the terminal's width (80 columns when plain), presets split over several tables when
    they do not fit side by side, never a word broken.
    """
    plain = _plain(plain)
    out = term.console(plain, width=RULES_PLAIN_WIDTH)
    if preset is None:
        _all_presets(out, plain)
    else:
        _one_preset(out, Rules.preset(preset), preset, plain)


RULES_PLAIN_WIDTH = 80  # a pipe or a log has no width of its own: the narrowest common terminal's


def _all_presets(out: Console, plain: bool) -> None:
    names = Rules.presets()
    t = term.table("Rule presets (xueliu rules PRESET: one preset in full)", plain, "preset", "what it is")
    for name in names:
        t.add_row(name, presets.DESCRIPTIONS[name])
    out.print(t)
    options = {n: Rules.preset(n).to_dict() for n in names}
    for parts in range(1, len(names) + 1):  # the fewest tables per group that fit the width
        groups = [
            _option_tables(group, rows, chunk, options, plain)
            for group, rows in _groups()
            for chunk in term.split_evenly(names, parts)
        ]
        if all(term.fits(out, t) for t in groups):
            break
    for t in groups:
        out.print(t)


def _groups() -> list[tuple[str, list[tuple[str, str]]]]:
    """The option groups, then the fan table as one more group (its rows keyed ``fan.pattern``)."""
    fan = [(f"fan.{p}", f"{p} {chinese}") for p, chinese in presets.PATTERNS.items()]
    return [*presets.GROUPS, ("Pattern fan (— : the room does not have it)", fan)]


def _option_tables(
    group: str, rows: list[tuple[str, str]], names: Sequence[str], options: Mapping[str, Any], plain: bool
) -> Table:
    t = term.table(group, plain, "pattern" if rows[0][0].startswith("fan.") else "option", *names)
    for key, label in rows:
        values = [options[n]["fan"][key[4:]] if key.startswith("fan.") else options[n][key] for n in names]
        t.add_row(label, *(presets.show(v) for v in values))
    return term.keep_words(t)


def _one_preset(out: Console, r: Rules, name: str, plain: bool) -> None:
    out.print(f"{name}: {presets.DESCRIPTIONS[name]}")
    d = r.to_dict()
    for group, rows in presets.GROUPS:
        t = term.table(group, plain, "option", "value", "API name")
        t.columns[2].no_wrap = True  # an API name is copied whole
        for key, label in rows:
            t.add_row(label, presets.show(d[key]), key)
        out.print(term.keep_words(t, narrow=20))
    t = term.table("Pattern fan", plain, "pattern", "fan", "points")
    for pattern, chinese in presets.PATTERNS.items():
        fan = d["fan"][pattern]
        if fan is not None:  # points at the cap for a pattern above it (mil_sbr_2025's 清七对 4 fan: 8)
            capped = fan if r.cap_fan is None else min(fan, r.cap_fan)
            t.add_row(f"{pattern} {chinese}", str(fan), str(r.points(capped)))
    out.print(t)
    out.print("Settlement:")
    for line in presets.settlement(r):
        out.print(f"  {line}")


# ----------------------------------------------------------------------------------- replay


@cli.command()
@click.argument("log", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--step/--no-step", default=None, help="Wait for Enter before each turn (default: when stdin is a terminal)."
)
@click.option("--plain", is_flag=True, help=PLAIN_HELP)
def replay(log: Path, step: Optional[bool], plain: bool) -> None:
    """Step through a logged game (LOG: one JSON event per line, as `simulate --log` and
    `play --log` write), showing every seat's hand and each payment; or a match log (`play
    --hands N --log`), hand after hand with the totals."""
    plain = _plain(plain)
    out = term.console(plain)
    step = sys.stdin.isatty() if step is None else step
    match = read_match_log(log)
    if match is not None:
        _replay_match(match, out, plain, step)
        return
    events, lines = read_log(log)
    shown, incomplete = confirmed(events, log, lines)
    _show_events(shown, out, plain, step)
    if incomplete:
        raise click.ClickException(incomplete)


def read_match_log(path: Path) -> Optional[Match]:
    """The match a match log (one JSON object, ``Match.log()``) records, verified by replaying
    every hand; None for a file that is not one (a game's log)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise click.ClickException(f"cannot read {path}: {getattr(e, 'strerror', None) or e}") from None
    if not text.lstrip().startswith("{") or not _is_json(text):
        return None  # a game's log: JSON lines
    log = json.loads(text)
    return Match.from_log(log) if isinstance(log, dict) and log.get("type") == "match" else None


def _replay_match(match: Match, out: Console, plain: bool, step: bool) -> None:
    """Every hand of the match in turn, then the results and totals."""
    games = match.log()["games"]
    for n, events in enumerate(games, 1):
        out.print(f"Hand {n} of {match.hands}: {WINDS[events[0]['dealer']]} deals")
        if not _show_events(events, out, plain, step):
            return
    out.print(_totals_table(match, plain))


def _show_events(shown: list[dict[str, Any]], out: Console, plain: bool, step: bool) -> bool:
    """Prints the events one by one with the hands at milestones, as the engine holds them after
    the decision that wrote the event (``Game.replay_states``); a table due mid-decision (a win's
    payments, then the next draw) waits for the decision's last event. False if the user quit."""
    states = iter(Game.replay_states(shown))
    written, game = next(states)
    wilds = shown[0].get("rules", {}).get("wilds", False)
    table_due = False
    for i, event in enumerate(shown):
        if step and event["type"] == "draw" and not _wait(f"[{i}/{len(shown)}] Enter: next turn, q: quit"):
            return False
        while written <= i:
            written, game = next(states)
        line = term.describe(event, WINDS, wilds=wilds)
        if event["type"] in ("draw", "discard", "pong", "kong") and not _drawn_after(shown, i, written):
            line.append("   ")
            line.append_text(term.tiles(game.hand(event["seat"]), wilds))
        out.print(line)
        table_due = table_due or _milestone(shown, i)
        if table_due and i + 1 >= written:
            out.print(_hands_table(game, plain, wilds))
            table_due = False
    return True


def _drawn_after(events: list[dict[str, Any]], i: int, written: int) -> bool:
    """Whether event ``i``'s seat draws again in the same decision (a kong's replacement, among
    the events before ``written``): the state after the decision is not its hand after event ``i``,
    so the hand is shown on the draw's line instead."""
    seat = events[i].get("seat")
    return any(e["type"] == "draw" and e["seat"] == seat for e in events[i + 1 : written])


def confirmed(events: list[dict[str, Any]], path: Path, lines: Sequence[int]) -> tuple[list[dict[str, Any]], str]:
    """The events the engine confirms by replaying them, and what is wrong with the rest: a log it
    would not write is refused, naming the file's line (``lines[i]`` is event i's) where it departs
    from what the engine writes; a log that stops before the hand's ``end`` (a game cut short, a
    file cut off) is replayed as far as the engine confirms it, then said to be incomplete."""
    ended = events[-1].get("type") == "end"
    k = Game.replayed_prefix(events)  # the longest start of the log the engine writes
    if k < len(events) and (ended or k == 0):
        _say_where(events, k, path, lines)  # a complete log replays whole; a start must replay
    if ended:
        return events, ""
    last = term.describe(events[-1], WINDS).plain.strip()
    return events[:k], (
        f"{path} is incomplete: it stops at line {lines[-1]} ({last}) before the hand's end; "
        f"lines 1-{lines[k - 1]} replayed above, as the engine confirms them"
    )


def _say_where(events: list[dict[str, Any]], k: int, path: Path, lines: Sequence[int]) -> NoReturn:
    """Fails naming the first line past the ``k`` events that replay (the tampered or misplaced
    event), with the engine's reason for refusing the whole log."""
    try:
        Game.from_events(events)
        reason = "the log goes on past its end"
    except XueliuError as e:
        reason = str(e)
    replayed = f" (lines 1-{lines[k - 1]} replay)" if k else ""
    raise click.ClickException(f"{path} line {lines[k]} is not what the engine writes there{replayed}: {reason}")


def read_log(path: Path) -> tuple[list[dict[str, Any]], list[int]]:
    """The events of a JSON-lines log (a JSON list is read too), naming the line of any bad one,
    and the file's line of each event (blank lines skipped; the opening line for a list)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise click.ClickException(f"cannot read {path}: {getattr(e, 'strerror', None) or e}") from None
    if text.lstrip().startswith("["):
        listed: list[dict[str, Any]] = _json(text, f"{path}")
        return listed, [1] * len(listed)
    lines = text.splitlines()
    if lines and not text.endswith("\n") and not _is_json(lines[-1]):
        lines.pop()  # a last line cut off mid-write: the log is incomplete, which replay says
    numbers = [n for n, line in enumerate(lines, 1) if line.strip()]
    events = [_json(lines[n - 1], f"{path} line {n}") for n in numbers]
    if not events:
        raise click.ClickException(f"{path} holds no events; write a log with `xueliu play --log FILE`")
    return events, numbers


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except json.JSONDecodeError:
        return False
    return True


def _json(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise click.ClickException(
            f"{where} is not JSON ({e.msg} at column {e.colno}); a log is one JSON event per line"
        ) from None


def _milestone(events: list[dict[str, Any]], i: int) -> bool:
    """True where everyone's hands are worth a look: after the exchange, at the end, and after
    the last of a run of deals, of void declarations, or of wins and their payments."""
    kind: str = events[i]["type"]
    following: Optional[str] = events[i + 1]["type"] if i + 1 < len(events) else None
    if kind in ("exchange", "end"):
        return True
    if kind in ("deal", "void"):
        return following != kind
    if kind in ("win", "payment") and following not in ("win", "payment"):
        j = i
        while events[j]["type"] == "payment":
            j -= 1
        return bool(events[j]["type"] == "win")
    return False


def _wait(prompt: str) -> bool:
    try:
        return input(prompt + " ").strip().lower() not in ("q", "quit")
    except EOFError:
        return False


def _hands_table(game: Game, plain: bool, wilds: bool = False) -> Table:
    t = term.table("", plain, "seat", "void", "hand", "melds", "wins", "score")
    for seat in range(4):
        t.add_row(
            WINDS[seat],
            game.void(seat) or "",
            term.tiles(game.hand(seat), wilds),
            term.melds(((m.kind, m.tile, m.wilds) for m in game.melds(seat)), wilds),
            str(sum(w.seat == seat for w in game.wins)),
            str(game.scores[seat]),
        )
    return t


# ------------------------------------------------------------------------------------- play


@cli.command()
@click.option(
    "--rules",
    "rules_name",
    default="xuezhan",
    show_default=True,
    help="A preset name (xueliu rules lists them); xuezhan, with the exchange and the void, is the game "
    "most players know, as on the web table.",
)
@click.option(
    "--seed",
    type=click.IntRange(0, 2**64 - 1),
    default=None,
    help="The game's seed; a fresh one is picked and printed when left out.",
)
@click.option(
    "--seat",
    type=click.IntRange(0, 3),
    default=0,
    show_default=True,
    help="Your seat: 0 East, 1 South, 2 West, 3 North.",
)
@click.option(
    "--bots",
    default="greedy",
    show_default=True,
    help="The bots: one name, or three comma-separated (greedy, random, ...).",
)
@click.option(
    "--hands",
    type=click.IntRange(1, 10_000),
    default=1,
    show_default=True,
    help="Hands to play as a match: the deal passes by the rules, the totals run on.",
)
@click.option(
    "--log",
    "log_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the game's event log here (JSON lines; a match log with --hands) for `xueliu replay`.",
)
@click.option(
    "--lang",
    "language",
    type=click.Choice(LANGUAGES),
    default=None,
    help="The language: zh-Hans (简体), zh-Hant (繁體) or en; by default the locale's (LC_ALL, LANG), else en.",
)
@click.option("--plain", is_flag=True, help=PLAIN_HELP)
def play(
    rules_name: str,
    seed: Optional[int],
    seat: int,
    bots: str,
    hands: int,
    log_path: Optional[Path],
    language: Optional[str],
    plain: bool,
) -> None:
    """Play a full hand (or a match of --hands N) in the terminal against three bots.

    Pick each move by its number (or type it, e.g. `discard 5m`); give the exchange's three tiles
    by typing them (`159m`) or their places in your hand. Ctrl-D or Ctrl-C quits.
    """
    plain = _plain(plain)
    say = Words(language or language_of(os.environ))
    seats = say.seats()
    names = [say("you", seat=w) if s == seat else w for s, w in enumerate(seats)]
    screen = Screen(term.console(plain), seat, names, plain, say=say)
    seed = int.from_bytes(os.urandom(4), "little") if seed is None else seed
    if hands > 1:
        _play_match(Match(Rules.preset(rules_name), seed=seed, hands=hands), rules_name, screen, bots, log_path)
        return
    out = screen.out
    game = Game(Rules.preset(rules_name), seed=seed)
    players = _bots(bots, seat, seed)
    out.print(say("intro", rules=rules_name, seed=seed, seat=seats[seat]))
    play_hand(game, screen, players)
    out.print(_settlement(game, screen))
    if log_path is not None:
        write_log(log_path, game.events)
        out.print(say("log.written", path=log_path))


def _play_match(match: Match, rules_name: str, screen: Screen, bots: str, log_path: Optional[Path]) -> None:
    """Plays every hand of ``match``, showing the totals and the next dealer between hands."""
    out, say = screen.out, screen.say
    seats = say.seats()
    players = _bots(bots, screen.seat, match.seed)
    out.print(say("intro.match", rules=rules_name, hands=match.hands, seed=match.seed, seat=seats[screen.seat]))
    while True:
        game = match.game
        out.print(say("hand.deals", hand=match.hands_played + 1, hands=match.hands, dealer=seats[game.dealer]))
        play_hand(game, screen, players)
        out.print(_settlement(game, screen))
        out.print(_totals_table(match, screen.plain, say))
        if match.is_over:
            break
        match.next_hand()
        out.print(say("hand.next", dealer=seats[match.game.dealer]))
    if log_path is not None:
        log_path.write_text(json.dumps(match.log(), ensure_ascii=False) + "\n", encoding="utf-8")
        out.print(say("log.match_written", path=log_path))


def _totals_table(match: Match, plain: bool, say: Words = ENGLISH) -> Table:
    """Each finished hand's points and the running totals."""
    seats = say.seats()
    title = say("totals", played=match.hands_played, hands=match.hands)
    t = term.table(title, plain, say("col.hand_no"), say("col.dealer"), *seats)
    for n, (dealer, result) in enumerate(zip(match.dealers, match.results), 1):
        t.add_row(str(n), seats[dealer], *(f"{p:+d}" for p in result))
    t.add_row(say("totals.total"), "", *(f"{p:+d}" for p in match.totals))
    placement = match.placement_points
    if placement is not None:  # the session (盘) is over: placement points by rank, ties shared
        t.add_row(say("totals.placement"), "", *(f"{p:g}" for p in placement))
    return t


def write_log(path: Path, events: Sequence[Mapping[str, Any]]) -> None:
    path.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events), encoding="utf-8")


def _bots(spec: str, human: int, seed: int) -> dict[int, Bot]:
    """A Rust bot (``xueliu.Bot``) for each seat but ``human``, seeded from the game's seed and
    the seat; an unknown name raises ``BotError``, which lists the bots."""
    names = [n.strip() for n in spec.split(",")]
    if len(names) == 1:
        names *= 3
    if len(names) != 3:
        raise click.BadParameter(f"{spec!r}: give one bot name or three, comma-separated", param_hint="--bots")
    seats = [s for s in range(4) if s != human]
    return {s: Bot(name, seed=(seed * 4 + s) % 2**64) for s, name in zip(seats, names)}


def _settlement(game: Game, screen: Screen) -> Table:
    """The final table: every hand shown, each seat's wins and total."""
    start = game.events[0]
    assert start["type"] == "start"  # every log opens with its hand's start
    wilds, say = start["rules"]["wilds"], screen.say
    columns = (say(f"col.{c}") for c in ("seat", "hand", "melds", "wins", "total"))
    t = term.table(say("settlement"), screen.plain, *columns)
    for s in range(4):
        wins = "; ".join(
            say(
                "settlement.win",
                tile=w.tile,
                pattern=say.name("pattern", w.score.pattern),
                fan=w.score.capped_fan,
                points=w.score.points,
            )
            for w in game.wins
            if w.seat == s
        )
        melds = term.melds(((m.kind, m.tile, m.wilds) for m in game.melds(s)), wilds)
        t.add_row(screen.names[s], term.tiles(game.hand(s), wilds), melds, wins or "—", f"{game.scores[s]:+d}")
    return t


# --------------------------------------------------------------------------------- simulate


@cli.command()
@click.option(
    "--rules",
    "rules_name",
    default="chengdu",
    show_default=True,
    help="A preset name (xueliu rules lists them); chengdu, as in the API's examples and the engine's "
    "published speed figures, so a run compares with them (`play` and the web table start with xuezhan).",
)
@click.option("--games", type=click.IntRange(1), default=20_000, show_default=True, help="Hands to play.")
@click.option(
    "--bots",
    default="greedy",
    show_default=True,
    help="One bot name for every seat, or four comma-separated (greedy, random, ...).",
)
@click.option(
    "--seed",
    type=click.IntRange(0, 2**64 - 1),
    default=0,
    show_default=True,
    help="Game i is seeded from (seed, i): same seed, same games, whatever the threads.",
)
@click.option(
    "--threads",
    type=click.IntRange(0),
    default=0,
    show_default=True,
    help="Worker threads of this process; 0 uses every core.",
)
@shard_options("games")
@click.option(
    "--json",
    "json_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the summary here as JSON; `-` writes it to stdout (the tables go to stderr).",
)
@click.option(
    "--log",
    "log_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write each game's event log to DIR/game-NNNNNN.jsonl (one JSON event per line).",
)
@click.option("--plain", is_flag=True, help=PLAIN_HELP + " No live progress bar.")
def simulate(
    rules_name: str,
    games: int,
    bots: str,
    seed: int,
    threads: int,
    processes: int,
    ray_address: Optional[str],
    json_path: Optional[Path],
    log_dir: Optional[Path],
    plain: bool,
) -> None:
    """Play many hands between bots in Rust and summarise them: points per seat with a 95%
    confidence interval, wins, win kinds, the fan histogram, hand length and speed. The games
    are the same whatever --threads, --processes or --ray."""
    plain = _plain(plain)
    json_to_stdout = json_path == Path("-")
    out = term.console(plain, stderr=json_to_stdout)
    Rules.preset(rules_name)  # an unknown preset fails here, before any work
    seats = _seat_bots(bots)
    if json_path is not None and not json_to_stdout and not json_path.resolve().parent.is_dir():
        raise click.BadParameter(f"{json_path}: its folder does not exist", param_hint="--json")
    if log_dir is not None:
        log_dir.mkdir(parents=True, exist_ok=True)
    executor = shard_executor(processes, ray_address)
    if executor is not None:
        parts = simulate_shards(games, rules_name, bots=seats, seed=seed, logs=log_dir is not None, executor=executor)
        where, sharded = repr(executor), True
    else:
        run = functools.partial(
            run_simulation, rules=rules_name, bots=tuple(seats), seed=seed, threads=threads, logs=log_dir is not None
        )
        parts, where, sharded = _chunks(run, games), f"threads {threads or 'all'}", False
    collected = _collect(parts, games, plain, log_dir)
    summary = summarise(
        collected, rules=rules_name, bots=seats, seed=seed, threads=threads, where=where, sharded=sharded
    )
    _print_summary(out, summary, plain)
    if json_to_stdout:
        click.echo(json.dumps(summary, indent=2))
    elif json_path is not None:
        json_path.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
        out.print(f"Summary written to {json_path}")


def _seat_bots(spec: str) -> list[str]:
    names = [n.strip() for n in spec.split(",")]
    if len(names) == 1:
        names *= 4
    if len(names) != 4 or not all(names):
        raise click.BadParameter(f"{spec!r}: give one bot name or four, comma-separated", param_hint="--bots")
    return names


def _chunks(run: Any, games: int) -> Iterator[Any]:
    """``run`` on consecutive chunks of games (``first_game=``) in this process, each sized to
    about a fifth of a second so a progress bar moves."""
    done, chunk = 0, min(games, 256)
    while done < games:
        part = run(min(chunk, games - done), first_game=done)
        done += part.games
        chunk = max(64, int(part.games_per_second / 5))
        yield part


def _collect(parts: Iterable[SimulationResult], games: int, plain: bool, log_dir: Optional[Path]) -> Collected:
    """Merges ``SimulationResult`` parts as they come (chunks or shards, in any order) behind a
    progress bar; each part's logs are written and dropped as it comes."""
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]} games/s"),
        TimeRemainingColumn(),
    )
    kept, done, start = [], 0, time.perf_counter()
    with Progress(*columns, disable=plain, transient=True) as progress:
        task = progress.add_task("simulating", total=games, rate="—")
        for part in parts:
            if log_dir is not None:
                _write_logs(log_dir, part.first_game, part.logs)
                part = part.without_logs()
            kept.append(part)
            done += part.games
            rate = done / max(time.perf_counter() - start, 1e-9)
            progress.update(task, completed=done, rate=f"{rate:,.0f}")
    return Collected(in_order(kept, SimulationResult.merge), time.perf_counter() - start)


@dataclass
class Collected:
    """A simulation's parts merged in game order, and the wall-clock seconds the whole run took."""

    result: SimulationResult
    wall_seconds: float


def _write_logs(log_dir: Path, first: int, logs: Sequence[str]) -> None:
    for i, log in enumerate(logs, first):
        (log_dir / f"game-{i:06d}.jsonl").write_text(log if log.endswith("\n") else log + "\n", encoding="utf-8")


def summarise(
    collected: Collected,
    *,
    rules: str,
    bots: Sequence[str],
    seed: int,
    threads: int,
    where: str = "",
    sharded: bool = False,
) -> dict[str, Any]:
    """The numbers ``simulate`` prints (and writes with ``--json``): per seat the mean points
    with a 95% normal confidence interval (mean ± 1.96·sd/√n) and the wins; then win kinds,
    the fan histogram, the mean hand length in draws and the speed: the engine's games/s
    (``seconds`` summed over parts, without the one-time table build, ``table_seconds``) and
    the whole run's by the wall clock."""
    result = collected.result
    points = result.points.astype(np.float64)
    n = result.games
    mean = points.mean(axis=0)
    half = 1.96 * points.std(axis=0, ddof=1) / np.sqrt(n) if n > 1 else np.zeros(4)
    seats = [
        {
            "seat": s,
            "bot": bots[s],
            "mean_points": float(mean[s]),
            "ci_low": float(mean[s] - half[s]),
            "ci_high": float(mean[s] + half[s]),
            "wins": int(result.wins[s]),
        }
        for s in range(4)
    ]
    return {
        "rules": rules,
        "bots": list(bots),
        "seed": seed,
        "threads": threads,
        "where": where,
        "sharded": sharded,
        "games": n,
        "seconds": result.seconds,
        "games_per_second": n / max(result.seconds, 1e-9),
        "table_seconds": result.table_seconds,
        "wall_seconds": collected.wall_seconds,
        "wall_games_per_second": n / max(collected.wall_seconds, 1e-9),
        "seats": seats,
        "win_kinds": {k: int(v) for k, v in result.win_kinds.items()},
        "fan_histogram": {str(k): int(v) for k, v in sorted(result.fan_histogram.items())},
        "mean_draws": result.mean_draws,
    }


def _print_summary(out: Console, s: dict[str, Any], plain: bool) -> None:
    games = s["games"]
    t = term.table(
        f"{games:,} hands of {s['rules']}, seed {s['seed']}",
        plain,
        "seat",
        "bot",
        "points / hand",
        "95% CI",
        "wins",
        "wins / hand",
    )
    for seat in s["seats"]:
        t.add_row(
            WINDS[seat["seat"]],
            seat["bot"],
            f"{seat['mean_points']:+.3f}",
            f"[{seat['ci_low']:+.3f}, {seat['ci_high']:+.3f}]",
            f"{seat['wins']:,}",
            f"{seat['wins'] / games:.3f}",
        )
    out.print(t)
    wins = sum(s["win_kinds"].values()) or 1
    kinds = term.table("Win kinds", plain, "kind", "wins", "share")
    for kind, count in sorted(s["win_kinds"].items(), key=lambda kv: -kv[1]):
        kinds.add_row(kind, f"{count:,}", f"{count / wins:.1%}")
    out.print(kinds)
    fans = term.table("Fan histogram", plain, "fan (uncapped)", "wins", "share")
    for fan, count in s["fan_histogram"].items():
        fans.add_row(fan, f"{count:,}", f"{count / wins:.1%}")
    out.print(fans)
    each = " per process" if s["sharded"] else ""
    summed = ", summed over shards" if s["sharded"] else ""
    out.print(
        f"Mean hand length {s['mean_draws']:.1f} draws; the engine {s['games_per_second']:,.0f} games/s{each} "
        f"({s['seconds']:.2f} s of play{summed}, after {s['table_seconds']:.2f} s building its tables once"
        f"{each}); {s['wall_games_per_second']:,.0f} games/s by the wall clock ({s['wall_seconds']:.2f} s, "
        f"{s['where']})"
    )


# ------------------------------------------------------------------------------------ serve


# The server's limits, each an option named after its field of xueliu.server.Limits (not imported
# here: the server extra may be missing), with the default its help names (a test compares them).
LIMIT_OPTIONS = [
    ("max_tables", click.IntRange(1), "Live tables held at most.  [default: 100000]"),
    (
        "creates_per_minute",
        click.FloatRange(0),
        "New tables per client address and minute (0: no limit).  [default: 20]",
    ),
    (
        "messages_per_second",
        click.FloatRange(0),
        "WebSocket messages read per socket and second; faster ones wait (0: no limit).  [default: 50]",
    ),
    (
        "queue_bytes",
        click.IntRange(1),
        "Text waiting for one socket, or one table's delayed spectators, before they are dropped.  [default: 1048576]",
    ),
    ("hello_seconds", click.FloatRange(0), "A socket must say hello within this.  [default: 30]"),
    ("waiting_expiry", click.FloatRange(0), "Seconds a table may wait for people to join.  [default: 3600]"),
]


def _limit_options(command: Any) -> Any:
    for name, kind, text in reversed(LIMIT_OPTIONS):
        command = click.option("--" + name.replace("_", "-"), name, type=kind, help=text)(command)
    return command


@cli.command()
@click.option(
    "--db",
    "db_path",
    type=click.Path(dir_okay=False),
    default="xueliu.db",
    show_default=True,
    help="SQLite database of the tables (created if missing; unfinished tables resume).",
)
@click.option(
    "--database",
    metavar="URL",
    help="PostgreSQL instead of --db (postgresql://user@host:port/db), shared with any other `xueliu serve` "
    "processes on it: each plays the tables it leases and takes over those of a process that dies.",
)
@click.option(
    "--address",
    metavar="URL",
    help="With --database: where clients reach this process, for the others to route its tables to "
    "[default: http://HOST:PORT].",
)
@click.option(
    "--lease",
    type=click.FloatRange(0.5, 600),
    default=5.0,
    show_default=True,
    help="With --database: seconds a silent process keeps its tables before another takes them over.",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port to listen on.")
@click.option(
    "--compress/--no-compress",
    default=False,
    show_default=True,
    help="WebSocket compression (permessage-deflate): less bandwidth, more server CPU per message.",
)
@click.option(
    "--chosen-seeds",
    is_flag=True,
    hidden=True,
    help="Tables with people may take a chosen seed (tests only: the creator knows every deal).",
)
@_limit_options
@click.option(
    "--ladder-fill",
    type=click.FloatRange(0),
    default=30.0,
    show_default=True,
    help="Seconds a ranked queue shorter than four waits before reference bots fill it (docs/ladder.md).",
)
@click.option(
    "--ladder-time-ms",
    type=click.IntRange(1),
    default=5000,
    show_default=True,
    help="Wall time per decision for a bot connected to the ladder.",
)
@click.option(
    "--ladder-spectator-delay",
    type=click.FloatRange(0, 86_399),
    default=0.0,
    show_default=True,
    help="Seconds spectators of a ranked ladder game's table see it late (docs/ladder.md).",
)
@click.option(
    "--origin",
    "origins",
    multiple=True,
    help="An origin whose pages may play here, besides the server's own and loopback (repeat it; '*': any).",
)
def serve(
    db_path: str,
    database: Optional[str],
    address: Optional[str],
    lease: float,
    host: str,
    port: int,
    compress: bool,
    chosen_seeds: bool,
    ladder_fill: float,
    ladder_time_ms: int,
    ladder_spectator_delay: float,
    origins: tuple[str, ...],
    **limits: Any,
) -> None:
    """Run the table server: tables, seats, clocks and spectators over HTTP and WebSockets
    (docs/server.md, with the limits' meaning). Needs the server extra: pip install "xueliu[server]"
    (and "xueliu[postgres]" for --database)."""
    try:
        from .server import Limits, create_app
        from .server.serve import run, shared_storage
    except ImportError as e:
        raise click.ClickException(
            f'the server needs its extra ({e.name} is missing): pip install "xueliu[server]"'
        ) from None
    from .server.ladder import Ladder, LadderConfig
    from .server.ladder_store import LadderStore
    from .server.storage import StorageError

    _check_free(host, port)
    given = Limits(origins=origins, **{name: value for name, value in limits.items() if value is not None})
    storage = None if database is None else shared_storage(database, address or f"http://{host}:{port}", lease)
    config = LadderConfig(ladder_fill, ladder_time_ms, spectator_delay=ladder_spectator_delay)
    # in PostgreSQL beside the tables; in --db, made by create_app once the file is the server's
    ladder: Union[Ladder, LadderConfig] = config if database is None else Ladder(LadderStore(postgres=database), config)
    try:
        app = create_app(db_path, storage=storage, limits=given, chosen_seeds=chosen_seeds, ladder=ladder)
        run(app, host=host, port=port, compress=compress)
    except StorageError as e:
        raise click.ClickException(str(e)) from None
    finally:
        if isinstance(ladder, Ladder):
            ladder.store.close()
        if storage is not None:
            storage.close()  # hands its tables back to the other processes at once


def _check_free(host: str, port: int) -> None:
    """Fails in one line when ``host:port`` cannot be listened on (a busy port, an address not
    this machine's), before uvicorn would log it over several lines and exit with its own code."""
    import socket

    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
            probe.bind((host, port))
    except OSError as e:
        busy = " (another program is listening there: stop it, or pick another --port)"
        why = e.strerror or str(e)
        raise click.ClickException(
            f"cannot listen on {host}:{port}: {why}{busy if e.errno == errno.EADDRINUSE else ''}"
        ) from None
