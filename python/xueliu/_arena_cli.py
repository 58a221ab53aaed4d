"""``xueliu arena``: the command line of :func:`xueliu.arena` (docs/bot-protocol.md §6).

Reads ``--bot`` specifications (a built-in name, ``NAME=a command line``, ``NAME=file.py:Attr``
or ``NAME=module:Attr``), runs the arena behind a live progress bar showing the running margin
of the first two bots and its interval, prints the report and writes it as JSON, Markdown and
into a SQLite ladder file.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import re
import shlex
import sys
from pathlib import Path
from typing import Any, Optional

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from . import _terminal as term
from ._arena import arena as run_arena
from ._arena_report import ArenaResult, Sprt
from ._cli_shards import shard_executor, shard_options
from ._xueliu import Rules
from .players import ProcessBot

# NAME=path.py:Attr or NAME=package.module:Attr: an in-process bot.
_IN_PROCESS = re.compile(r"^(?P<where>[\w./-]+\.py|[\w.]+):(?P<attr>\w+)$")


def parse_bot(spec: str, time_ms: int, start_ms: int, memory_mb: int) -> tuple[str, Any]:
    """``(name, bot)`` from one ``--bot``: a built-in name, or NAME=command / NAME=file.py:Attr."""
    name, sep, value = spec.partition("=")
    if not sep:
        return spec.strip(), spec.strip()
    name, value = name.strip(), value.strip()
    if not name or not value:
        raise click.BadParameter(f'{spec!r}: write NAME=COMMAND, e.g. me="python mybot.py"', param_hint="--bot")
    found = _IN_PROCESS.match(value)
    if found:
        return name, _load(found["where"], found["attr"], spec)
    return name, ProcessBot(shlex.split(value), name=name, time_ms=time_ms, start_ms=start_ms, memory_mb=memory_mb)


def _load(where: str, attr: str, spec: str) -> Any:
    """The object ``attr`` of a Python file or module; a class is instantiated."""
    try:
        if where.endswith(".py"):
            loader = importlib.util.spec_from_file_location(Path(where).stem, where)
            if loader is None or loader.loader is None:
                raise ImportError(f"no such file: {where}")
            module = importlib.util.module_from_spec(loader)
            loader.loader.exec_module(module)
        else:
            module = importlib.import_module(where)
        bot = getattr(module, attr)
    except (ImportError, AttributeError, OSError) as e:
        raise click.BadParameter(f"{spec!r}: cannot load {attr} from {where}: {e}", param_hint="--bot") from None
    return bot() if isinstance(bot, type) else bot


def _pair(text: str, option: str) -> tuple[float, float]:
    try:
        low, high = (float(x) for x in text.split(","))
    except ValueError:
        raise click.BadParameter(f"{text!r}: give two numbers, H0,H1, e.g. 0,5", param_hint=option) from None
    return low, high


@click.command()
@click.option(
    "--bot",
    "bot_specs",
    multiple=True,
    required=True,
    metavar="SPEC",
    help="A bot, once per bot (at least two): a built-in name (greedy, random, ismcts:100), "
    'NAME="a command line" for a process speaking docs/bot-protocol.md, or NAME=file.py:Attr '
    "(or NAME=module:Attr) for an in-process Python bot.",
)
@click.option(
    "--rules", "rules_name", default="chengdu", show_default=True, help="A preset name (xueliu rules lists them)."
)
@click.option(
    "--deals", type=click.IntRange(1), default=1000, show_default=True, help="Deals, each played in every seating."
)
@click.option(
    "--seed",
    type=click.IntRange(0, 2**64 - 1),
    default=0,
    show_default=True,
    help="Deal i is simulate's game i of this seed: the same deals, whatever the processes.",
)
@click.option("--first-deal", type=click.IntRange(0), default=0, show_default=True, help="The first deal's number.")
@click.option(
    "--sprt",
    "sprt_elo",
    metavar="ELO0,ELO1",
    help="Stop when an SPRT on the first two bots decides, bounds in normalised Elo (e.g. 0,5).",
)
@click.option("--sprt-points", metavar="M0,M1", help="The same SPRT with bounds in points per game (e.g. 0,1).")
@click.option(
    "--alpha",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
    help="SPRT's false-positive rate.",
)
@click.option(
    "--beta",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
    help="SPRT's false-negative rate.",
)
@click.option(
    "--time-ms", type=click.IntRange(1), default=1000, show_default=True, help="A process bot's wall time per decision."
)
@click.option(
    "--start-ms",
    type=click.IntRange(1),
    default=10_000,
    show_default=True,
    help="A process bot's time to start and answer the hello.",
)
@click.option(
    "--memory-mb", type=click.IntRange(16), default=2048, show_default=True, help="A process bot's address space limit."
)
@shard_options("deals")
@click.option(
    "--json",
    "json_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the report as JSON here; `-` writes it to stdout (the tables go to stderr).",
)
@click.option(
    "--markdown",
    "markdown_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the report as Markdown here.",
)
@click.option(
    "--ladder",
    "ladder_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Append the run to this SQLite ladder file (created if new).",
)
@click.option("--plain", is_flag=True, help="Plain text, no colours, no live progress bar.")
def arena(
    bot_specs: tuple[str, ...],
    rules_name: str,
    deals: int,
    seed: int,
    first_deal: int,
    sprt_elo: Optional[str],
    sprt_points: Optional[str],
    alpha: float,
    beta: float,
    time_ms: int,
    start_ms: int,
    memory_mb: int,
    processes: int,
    ray_address: Optional[str],
    json_path: Optional[Path],
    markdown_path: Optional[Path],
    ladder_path: Optional[Path],
    plain: bool,
) -> None:
    """Rate bots against each other by duplicate deals: every deal is played in every seating,
    so the luck of the tiles cancels. Prints each pair's margin (points per game) with a 95%
    interval and μ/σ, ratings anchored at random = 0, and the statistics bots are compared by;
    --sprt stops as soon as the first two bots are told apart. Any bot can be a program in any
    language speaking docs/bot-protocol.md over stdin/stdout."""
    plain = plain or not sys.stdout.isatty()
    to_stdout = json_path == Path("-")
    out = term.console(plain, stderr=to_stdout)
    rules = Rules.preset(rules_name)
    for path, option in ((json_path, "--json"), (markdown_path, "--markdown"), (ladder_path, "--ladder")):
        if path is not None and path != Path("-") and not path.resolve().parent.is_dir():
            raise click.BadParameter(f"{path}: its folder does not exist", param_hint=option)
    if len(bot_specs) < 2:
        raise click.UsageError("an arena needs at least two --bot")
    bots = dict(parse_bot(s, time_ms, start_ms, memory_mb) for s in bot_specs)
    if len(bots) != len(bot_specs):
        raise click.BadParameter("two bots share a name: name them, e.g. --bot b2=greedy... ", param_hint="--bot")
    if sprt_elo and sprt_points:
        raise click.UsageError("--sprt and --sprt-points each set the SPRT: give one")
    sprt = None
    if sprt_elo or sprt_points:
        low, high = _pair(sprt_elo or sprt_points or "", "--sprt" if sprt_elo else "--sprt-points")
        sprt = Sprt(low, high, points=bool(sprt_points), alpha=alpha, beta=beta)
    executor = shard_executor(processes, ray_address)
    command = _command(bot_specs, rules_name, deals, seed, first_deal, sprt_elo, sprt_points, alpha, beta)
    result = _with_progress(bots, deals, rules, seed, first_deal, sprt, executor, command, plain)
    _print(out, result, plain)
    _write(result, json_path, markdown_path, ladder_path, out)


def _command(
    bot_specs: tuple[str, ...],
    rules: str,
    deals: int,
    seed: int,
    first: int,
    sprt_elo: Optional[str],
    sprt_points: Optional[str],
    alpha: float,
    beta: float,
) -> str:
    """The command line that plays the same deals again (where the shards run does not matter)."""
    words = ["xueliu", "arena", "--rules", rules, "--deals", str(deals), "--seed", str(seed)]
    words += ["--first-deal", str(first)] if first else []
    for spec in bot_specs:
        words += ["--bot", spec]
    if sprt_elo or sprt_points:
        words += ["--sprt" if sprt_elo else "--sprt-points", sprt_elo or sprt_points or ""]
        words += ["--alpha", str(alpha), "--beta", str(beta)]
    return " ".join(shlex.quote(w) for w in words)


def _with_progress(
    bots: dict[str, Any],
    deals: int,
    rules: Rules,
    seed: int,
    first: int,
    sprt: Optional[Sprt],
    executor: Any,
    command: str,
    plain: bool,
) -> ArenaResult:
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[estimate]}"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, disable=plain, transient=True) as progress:
        names = list(bots)
        task = progress.add_task(f"{names[0]} − {names[1]}", total=deals, estimate="")

        def update(result: ArenaResult) -> None:
            pair = result.pair(0, 1)
            low, high = pair.ci
            progress.update(task, completed=result.deals, estimate=f"{pair.mean:+.2f} [{low:+.2f}, {high:+.2f}]")

        return run_arena(
            bots,
            deals,
            rules,
            seed=seed,
            first_deal=first,
            sprt=sprt,
            executor=executor,
            progress=update,
            command=command,
        )


def _print(out: Any, result: ArenaResult, plain: bool) -> None:
    d = result.to_dict()
    out.print(
        f"{result.deals} deals × {len(result.seatings)} seatings, {result.rules.preset_name or 'custom rules'}, "
        f"seed {result.seed}, {result.seconds:.1f} s"
    )
    if result.sprt is not None:
        out.print(f"SPRT {result.sprt.to_dict()}: {result.verdict or 'undecided'}")
    pairs = term.table("Pairs: a − b, points per game", plain, "a", "b", "deals", "a − b", "95% CI", "σ/deal", "μ/σ")
    for p in d["pairs"]:
        pairs.add_row(
            p["a"],
            p["b"],
            str(p["deals"]),
            f"{p['mean']:+.2f}",
            f"[{p['ci_low']:+.2f}, {p['ci_high']:+.2f}]",
            f"{p['sd']:.2f}",
            f"{p['mu_sigma']:+.3f}",
        )
    out.print(pairs)
    ratings = term.table("Ratings (points per game above random)", plain, "bot", "rating", "95% CI")
    for name, r in sorted(d["ratings"].items(), key=lambda kv: -kv[1]["rating"]):
        ratings.add_row(
            name, f"{r['rating']:+.2f}", "anchor" if r["anchor"] else f"[{r['ci_low']:+.2f}, {r['ci_high']:+.2f}]"
        )
    out.print(ratings)
    stats = term.table(
        "Bots",
        plain,
        "bot",
        "win rate",
        "self-draw",
        "deal-in",
        "mean fan",
        "花猪",
        "查叫",
        "kongs",
        "ms/decision (p99)",
        "defaults",
        "errors",
    )
    for name, s in d["stats"].items():
        ms = "—" if s["decision_ms_mean"] is None else f"{s['decision_ms_mean']:.2f} ({s['decision_ms_p99']:.2f})"
        stats.add_row(
            name,
            f"{s['win_rate']:.3f}",
            f"{s['self_draw_share']:.3f}",
            f"{s['deal_in_rate']:.3f}",
            f"{s['mean_fan']:.2f}",
            f"{s['flower_pig_rate']:.3f}",
            f"{s['not_ready_rate']:.3f}",
            f"{s['kongs_per_hand']:.3f}",
            ms,
            str(s["defaulted"] + s["rejected"] + s["unparseable"]),
            str(s["errors"] + s["stale"]),
        )
    out.print(stats)


def _write(
    result: ArenaResult, json_path: Optional[Path], markdown_path: Optional[Path], ladder_path: Optional[Path], out: Any
) -> None:
    if json_path == Path("-"):
        click.echo(json.dumps(result.to_dict(), indent=2))
    elif json_path is not None:
        json_path.write_text(json.dumps(result.to_dict(), indent=2) + "\n", encoding="utf-8")
        out.print(f"JSON written to {json_path}")
    if markdown_path is not None:
        markdown_path.write_text(result.to_markdown(), encoding="utf-8")
        out.print(f"Markdown written to {markdown_path}")
    if ladder_path is not None:
        run = result.save(str(ladder_path))
        out.print(f"Run {run} added to {ladder_path}")
