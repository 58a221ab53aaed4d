"""The ``xueliu`` command: simulate many games, play one in the terminal, replay a log, show rules.

Built on Click (commands, options, ``--help``) and Rich (tables, colours, the progress bar).
Every failure the user can cause — a bad preset, file or option — ends as one line on stderr and
a non-zero exit status, never a traceback (:func:`main`).
"""

from __future__ import annotations

import functools
import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Sequence

import click
import numpy as np
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from . import _terminal as term
from ._tracker import Tracker
from ._xueliu import Action, Bot, Game, Rules, XueliuError
from ._xueliu import simulate as run_simulation

WINDS = ("East", "South", "West", "North")
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
PLAIN_HELP = "Plain text, no colours (the default when stdout is not a terminal)."


@click.group(context_settings=CONTEXT, invoke_without_command=True)
@click.pass_context
def cli(ctx: click.Context) -> None:
    """xueliu: a fast, exact engine for Sichuan mahjong (血战到底, 血流成河).

    Run `xueliu COMMAND --help` for a command's options.
    """
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


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
    """Show the rule presets side by side, or one PRESET's options.

    Option names are the API's (Rules.preset(name, option=value)); docs/rules.md explains each.
    """
    plain = _plain(plain)
    out = term.console(plain)
    names = [preset] if preset else Rules.presets()
    options = [_flatten(Rules.preset(n).to_dict()) for n in names]
    title = f"Rules preset {preset}" if preset else "Rule presets (xueliu rules PRESET for one)"
    t = term.table(title, plain, "option", *names)
    for key in options[0]:
        if key != "preset":
            t.add_row(key, *(_show_value(o[key]) for o in options))
    out.print(t)


def _flatten(d: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """``{"fan": {"basic": 0}}`` → ``{"fan.basic": 0}``, in the dict's order."""
    flat: dict[str, Any] = {}
    for key, value in d.items():
        if isinstance(value, dict):
            flat.update(_flatten(value, f"{prefix}{key}."))
        else:
            flat[prefix + key] = value
    return flat


def _show_value(value: Any) -> str:
    if value is None:
        return "—"
    return str(value).lower() if isinstance(value, bool) else str(value)


# ----------------------------------------------------------------------------------- replay


@cli.command()
@click.argument("log", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--step/--no-step", default=None,
              help="Wait for Enter before each turn (default: when stdin is a terminal).")
@click.option("--plain", is_flag=True, help=PLAIN_HELP)
def replay(log: Path, step: Optional[bool], plain: bool) -> None:
    """Step through a logged game (LOG: one JSON event per line, as `simulate --log` and
    `play --log` write), showing every seat's hand and each payment."""
    events = read_log(log)
    Game.from_events(events)  # the engine replays the log: a log it would not write is refused
    plain = _plain(plain)
    out = term.console(plain)
    step = sys.stdin.isatty() if step is None else step
    tracker = Tracker()
    for i, event in enumerate(events):
        if step and event["type"] == "draw" and not _wait(f"[{i}/{len(events)}] Enter: next turn, q: quit"):
            return
        tracker.apply(event)
        line = term.describe(event, WINDS)
        if event["type"] in ("draw", "discard", "pong", "kong"):
            line.append("   ")
            line.append_text(term.tiles(tracker.seats[event["seat"]].hand))
        out.print(line)
        if _milestone(events, i):
            out.print(_hands_table(tracker, plain))


def read_log(path: Path) -> list[dict[str, Any]]:
    """The events of a JSON-lines log (a JSON list is read too), with the line of any bad one."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise click.ClickException(f"cannot read {path}: {getattr(e, 'strerror', None) or e}")
    if text.lstrip().startswith("["):
        return _json(text, f"{path}")
    events = [_json(line, f"{path} line {n}") for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not events:
        raise click.ClickException(f"{path} holds no events; write a log with `xueliu play --log FILE`")
    return events


def _json(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise click.ClickException(f"{where} is not JSON ({e.msg} at column {e.colno}); "
                                   "a log is one JSON event per line")


def _milestone(events: list[dict[str, Any]], i: int) -> bool:
    """True where everyone's hands are worth a look: after the exchange, at the end, and after
    the last of a run of deals, of void declarations, or of wins and their payments."""
    kind = events[i]["type"]
    following = events[i + 1]["type"] if i + 1 < len(events) else None
    if kind in ("exchange", "end"):
        return True
    if kind in ("deal", "void"):
        return following != kind
    if kind in ("win", "payment") and following not in ("win", "payment"):
        j = i
        while events[j]["type"] == "payment":
            j -= 1
        return events[j]["type"] == "win"
    return False


def _wait(prompt: str) -> bool:
    try:
        return input(prompt + " ").strip().lower() not in ("q", "quit")
    except EOFError:
        return False


def _hands_table(tracker: Tracker, plain: bool):
    t = term.table("", plain, "seat", "void", "hand", "melds", "wins", "score")
    for seat, s in enumerate(tracker.seats):
        t.add_row(WINDS[seat], s.void or "", term.tiles(s.hand), term.melds(s.melds), str(s.won), str(s.score))
    return t


# ------------------------------------------------------------------------------------- play


@cli.command()
@click.option("--rules", "rules_name", default="xuezhan", show_default=True,
              help="A preset name (xueliu rules lists them).")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=None,
              help="The game's seed; a fresh one is picked and printed when left out.")
@click.option("--seat", type=click.IntRange(0, 3), default=0, show_default=True,
              help="Your seat: 0 East, 1 South, 2 West, 3 North.")
@click.option("--bots", default="greedy", show_default=True,
              help="The bots: one name, or three comma-separated (greedy, random, ...).")
@click.option("--log", "log_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the game's event log here (JSON lines) for `xueliu replay`.")
@click.option("--plain", is_flag=True, help=PLAIN_HELP)
def play(rules_name: str, seed: Optional[int], seat: int, bots: str, log_path: Optional[Path],
         plain: bool) -> None:
    """Play a full hand in the terminal against three bots.

    Pick each move by its number (or type it, e.g. `discard 5m`); Ctrl-D or Ctrl-C quits.
    """
    plain = _plain(plain)
    out = term.console(plain)
    seed = int.from_bytes(os.urandom(4), "little") if seed is None else seed
    game = Game(Rules.preset(rules_name), seed=seed)
    players = _bots(bots, seat, seed)
    names = [f"{w} (you)" if s == seat else w for s, w in enumerate(WINDS)]
    out.print(f"xueliu play: rules {rules_name}, seed {seed} (--seed {seed} replays it); "
              f"you are {WINDS[seat]}")
    shown = 0
    while not game.is_over:
        for s in list(game.to_act()):
            shown = _show_events(out, game, seat, names, shown)
            action = _ask(out, game, seat, names, plain) if s == seat else players[s].choose(game, s)
            game.act(s, action)
    _show_events(out, game, seat, names, shown)
    out.print(_settlement(game, names, plain))
    if log_path is not None:
        write_log(log_path, game.events)
        out.print(f"Log written to {log_path} (xueliu replay {log_path})")


def write_log(path: Path, events: list[dict[str, Any]]) -> None:
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


def _show_events(out: Console, game: Game, seat: int, names: Sequence[str], shown: int) -> int:
    """Prints the events ``seat`` may see that were not printed yet; returns how many are."""
    events = game.events_for(seat)
    for event in events[shown:]:
        out.print(term.describe(event, names))
    return len(events)


def _ask(out: Console, game: Game, seat: int, names: Sequence[str], plain: bool) -> Action:
    """Shows the table and the seat's hand, offers the legal actions by number, reads a choice."""
    legal = game.legal_actions(seat)
    out.print(_table_view(game, seat, names, plain))
    if len(legal) == 1:
        out.print(f"Only one choice: {legal[0]}")
        return legal[0]
    for n, action in enumerate(legal, 1):
        out.print(f"  {n:>2}) {action}")
    while True:
        try:
            answer = input(f"Your move [1-{len(legal)}]: ").strip()
        except EOFError:
            raise click.exceptions.Abort()
        action = _read_choice(answer, legal)
        if action is not None:
            return action
        out.print(f"Please type a number from 1 to {len(legal)}, or an action such as `{legal[0]}`.")


def _read_choice(answer: str, legal: list[Action]) -> Optional[Action]:
    if answer.isdigit():
        n = int(answer)
        return legal[n - 1] if 1 <= n <= len(legal) else None
    try:
        action = Action.parse(answer)
    except XueliuError:
        return None
    return action if action in legal else None


def _table_view(game: Game, seat: int, names: Sequence[str], plain: bool):
    """Everyone's melds, discards, void and score; only ``seat``'s own concealed tiles."""
    t = term.table(f"Phase {game.phase}, wall {game.wall_remaining} tiles", plain,
                   "seat", "void", "tiles", "melds", "discards", "score")
    for s in range(4):
        held = term.tiles(game.hand(s)) if s == seat else f"{len(game.hand(s))} hidden"
        melds = term.melds((m.kind, m.tile, m.wilds) for m in game.melds(s))
        t.add_row(names[s], game.void(s) or "", held, melds, term.tiles(game.discards(s)), str(game.scores[s]))
    return t


def _settlement(game: Game, names: Sequence[str], plain: bool):
    """The final table: every hand shown, each seat's wins and total."""
    t = term.table("Settlement", plain, "seat", "hand", "melds", "wins", "total")
    for s in range(4):
        wins = ", ".join(f"{w.score.pattern} {w.score.capped_fan} fan {w.score.points} pts"
                         for w in game.wins if w.seat == s)
        t.add_row(names[s], term.tiles(game.hand(s)), term.melds((m.kind, m.tile, m.wilds) for m in game.melds(s)),
                  wins or "—", str(game.scores[s]))
    return t


# --------------------------------------------------------------------------------- simulate


@cli.command()
@click.option("--rules", "rules_name", default="chengdu", show_default=True,
              help="A preset name (xueliu rules lists them).")
@click.option("--games", type=click.IntRange(1), default=20_000, show_default=True, help="Hands to play.")
@click.option("--bots", default="greedy", show_default=True,
              help="One bot name for every seat, or four comma-separated (greedy, random, ...).")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=0, show_default=True,
              help="Game i is seeded from (seed, i): same seed, same games, whatever the threads.")
@click.option("--threads", type=click.IntRange(0), default=0, show_default=True,
              help="Worker threads; 0 uses every core.")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write the summary here as JSON.")
@click.option("--log", "log_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Write each game's event log to DIR/game-NNNNNN.jsonl (one JSON event per line).")
@click.option("--plain", is_flag=True, help=PLAIN_HELP + " No live progress bar.")
def simulate(rules_name: str, games: int, bots: str, seed: int, threads: int, json_path: Optional[Path],
             log_dir: Optional[Path], plain: bool) -> None:
    """Play many hands between bots in Rust and summarise them: points per seat with a 95%
    confidence interval, wins, win kinds, the fan histogram, hand length and speed."""
    plain = _plain(plain)
    out = term.console(plain)
    Rules.preset(rules_name)  # an unknown preset fails here, before any work
    seats = _seat_bots(bots)
    if json_path is not None and not json_path.resolve().parent.is_dir():
        raise click.BadParameter(f"{json_path}: its folder does not exist", param_hint="--json")
    if log_dir is not None:
        log_dir.mkdir(parents=True, exist_ok=True)
    run = functools.partial(run_simulation, rules=rules_name, bots=tuple(seats), seed=seed, threads=threads,
                            logs=log_dir is not None)
    totals = _run_in_chunks(run, games, plain, log_dir)
    summary = summarise(totals, rules=rules_name, bots=seats, seed=seed, threads=threads)
    _print_summary(out, summary, plain)
    if json_path is not None:
        json_path.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
        out.print(f"Summary written to {json_path}")


def _seat_bots(spec: str) -> list[str]:
    names = [n.strip() for n in spec.split(",")]
    if len(names) == 1:
        names *= 4
    if len(names) != 4 or not all(names):
        raise click.BadParameter(f"{spec!r}: give one bot name or four, comma-separated", param_hint="--bots")
    return names


def _run_in_chunks(run: Any, games: int, plain: bool, log_dir: Optional[Path]) -> "Totals":
    """Calls ``run`` on consecutive chunks of games (``first_game=``), sized to about a fifth of
    a second each so the bar moves; each chunk's logs are written and dropped as it comes."""
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[rate]} games/s"), TimeRemainingColumn())
    totals, chunk = Totals(), min(games, 256)
    with Progress(*columns, disable=plain, transient=True) as progress:
        task = progress.add_task("simulating", total=games, rate="—")
        while totals.games < games:
            part = run(min(chunk, games - totals.games), first_game=totals.games)
            if log_dir is not None:
                _write_logs(log_dir, totals.games, part.logs)
            totals.add(part)
            rate = part.games / max(part.seconds, 1e-9)
            chunk = max(64, int(rate / 5))
            progress.update(task, completed=totals.games, rate=f"{rate:,.0f}")
    return totals


@dataclass
class Totals:
    """What the summary needs from consecutive ``SimulationResult`` chunks, without their logs
    (``SimulationResult.merge`` would keep every log in memory)."""

    games: int = 0
    seconds: float = 0.0
    points: list = field(default_factory=list)
    wins: list = field(default_factory=lambda: [0] * 4)
    win_kinds: dict = field(default_factory=dict)
    fan_histogram: dict = field(default_factory=dict)
    draws: int = 0

    @staticmethod
    def of(result: Any) -> "Totals":
        totals = Totals()
        totals.add(result)
        return totals

    def add(self, result: Any) -> None:
        self.games += result.games
        self.seconds += result.seconds
        self.points.append(np.asarray(result.points, dtype=np.int64))
        self.wins = [a + b for a, b in zip(self.wins, result.wins)]
        for name, tally in (("win_kinds", result.win_kinds), ("fan_histogram", result.fan_histogram)):
            counts = getattr(self, name)
            for key, count in tally.items():
                counts[key] = counts.get(key, 0) + count
        self.draws += round(result.mean_draws * result.games)  # the draws were a whole number


def _write_logs(log_dir: Path, first: int, logs: Sequence[str]) -> None:
    for i, log in enumerate(logs, first):
        (log_dir / f"game-{i:06d}.jsonl").write_text(log if log.endswith("\n") else log + "\n", encoding="utf-8")


def summarise(totals: Totals, *, rules: str, bots: Sequence[str], seed: int, threads: int) -> dict[str, Any]:
    """The numbers ``simulate`` prints (and writes with ``--json``): per seat the mean points
    with a 95% normal confidence interval (mean ± 1.96·sd/√n) and the wins; then win kinds,
    the fan histogram, the mean hand length in draws and the speed."""
    points = np.concatenate(totals.points).astype(np.float64)
    n = totals.games
    mean = points.mean(axis=0)
    half = 1.96 * points.std(axis=0, ddof=1) / np.sqrt(n) if n > 1 else np.zeros(4)
    seats = [{"seat": s, "bot": bots[s], "mean_points": float(mean[s]), "ci_low": float(mean[s] - half[s]),
              "ci_high": float(mean[s] + half[s]), "wins": int(totals.wins[s])} for s in range(4)]
    return {"rules": rules, "bots": list(bots), "seed": seed, "threads": threads, "games": n,
            "seconds": totals.seconds, "games_per_second": n / max(totals.seconds, 1e-9),
            "seats": seats, "win_kinds": {k: int(v) for k, v in totals.win_kinds.items()},
            "fan_histogram": {str(k): int(v) for k, v in sorted(totals.fan_histogram.items())},
            "mean_draws": totals.draws / n}


def _print_summary(out: Console, s: dict[str, Any], plain: bool) -> None:
    games = s["games"]
    t = term.table(f"{games:,} hands of {s['rules']}, seed {s['seed']}", plain,
                   "seat", "bot", "points / hand", "95% CI", "wins", "wins / hand")
    for seat in s["seats"]:
        t.add_row(WINDS[seat["seat"]], seat["bot"], f"{seat['mean_points']:+.3f}",
                  f"[{seat['ci_low']:+.3f}, {seat['ci_high']:+.3f}]", f"{seat['wins']:,}",
                  f"{seat['wins'] / games:.3f}")
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
    out.print(f"Mean hand length {s['mean_draws']:.1f} draws; {s['games_per_second']:,.0f} games/s "
              f"({s['seconds']:.2f} s in the engine, threads {s['threads'] or 'all'})")


# ------------------------------------------------------------------------------------ serve


@cli.command()
@click.option("--db", "db_path", type=click.Path(dir_okay=False), default="xueliu.db", show_default=True,
              help="SQLite database of the tables (created if missing; unfinished tables resume).")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port to listen on.")
def serve(db_path: str, host: str, port: int) -> None:
    """Run the table server: tables, seats, clocks and spectators over HTTP and WebSockets
    (docs/server.md). Needs the server extra: pip install "xueliu[server]"."""
    try:
        import uvicorn

        from .server import create_app
    except ImportError as e:
        raise click.ClickException(f'the server needs its extra ({e.name} is missing): pip install "xueliu[server]"')
    uvicorn.run(create_app(db_path), host=host, port=port, ws_max_size=1 << 20, log_level="info")
