"""``xueliu ladder-bot`` and ``xueliu ladder-client``: a bot account on a server's ladder, and
any stdin/stdout bot connected to it (docs/ladder.md). Both need the server extra."""

from __future__ import annotations

import asyncio
import shlex
from typing import Optional

import click

from ._xueliu import Rules


def _server_extra(name: Optional[str]) -> click.ClickException:
    return click.ClickException(f'the ladder needs the server extra ({name} is missing): pip install "xueliu[server]"')


@click.command("ladder-bot")
@click.argument("name")
@click.option(
    "--db",
    "db_path",
    type=click.Path(dir_okay=False),
    default="xueliu.db",
    show_default=True,
    help="The server's SQLite database (as `xueliu serve --db`).",
)
@click.option("--database", metavar="URL", help="The server's PostgreSQL instead (as `xueliu serve --database`).")
def ladder_bot(name: str, db_path: str, database: Optional[str]) -> None:
    """Create the bot account NAME on a server's ladder and print its secret token (shown once;
    the server keeps only its digest). A running server may also create accounts over HTTP:
    POST /api/ladder/bots {"name": NAME}."""
    try:
        from .server.ladder import Ladder, LadderError
        from .server.ladder_store import LadderStore
    except ImportError as e:
        raise _server_extra(e.name) from None
    store = LadderStore(db_path, postgres=database)
    try:
        token = Ladder(store).create_bot(name)
    except LadderError as e:
        raise click.ClickException(str(e)) from None
    finally:
        store.close()
    click.echo(token)


@click.command("ladder-client", context_settings={"ignore_unknown_options": True})
@click.argument("url")
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
@click.option("--bot", "account", required=True, help="The bot's account name (xueliu ladder-bot NAME makes one).")
@click.option("--token", envvar="XUELIU_BOT_TOKEN", required=True, help="The account's token [env: XUELIU_BOT_TOKEN].")
@click.option(
    "--rules",
    "preset",
    type=click.Choice(Rules.presets()),
    default="chengdu",
    show_default=True,
    help="The ranked queue.",
)
@click.option("--sets", type=click.IntRange(1), help="Ranked sets to play, then stop [default: until stopped].")
def ladder_client(
    url: str, command: tuple[str, ...], account: str, token: str, preset: str, sets: Optional[int]
) -> None:
    """Connect a bot program (COMMAND, speaking docs/bot-protocol.md on stdin/stdout) to the
    ladder of the server at URL (http://host:port): it plays its validation game if the account
    has not passed one, then ranked sets. Prints the validation and each set's result.

    \b
    xueliu ladder-client http://127.0.0.1:8000 --bot me -- python examples/bots/simple_bot.py
    """
    try:
        from .server.ladder_client import play
    except ImportError as e:
        raise _server_extra(e.name) from None
    if len(command) == 1:
        command = tuple(shlex.split(command[0]))
    socket_url = url.replace("http://", "ws://", 1).replace("https://", "wss://", 1).rstrip("/") + "/api/ladder/play"
    try:
        session = asyncio.run(play(socket_url, command, bot=account, token=token, preset=preset, sets=sets))
    except OSError as e:
        raise click.ClickException(f"cannot reach {url}: {e}") from None
    if session.validation is not None:
        report = session.validation
        click.echo(
            f"validation: {'passed' if report['passed'] else 'failed'} ({report['counts']['decisions']} decisions)"
        )
        for problem in report["problems"]:
            click.echo(f"  {problem}")
    for result in session.rated:
        rating = result["rating"]
        shown = f"{rating['rating']:+.2f} [{rating['ci_low']:+.2f}, {rating['ci_high']:+.2f}]" if rating else "—"
        others = ", ".join(f"{n} {p:+.2f}" for n, p in zip(result["bots"], result["points"]))
        tables = ", ".join(result.get("tables", [])) or "—"
        click.echo(f"set under {result['preset']}: {others}; rating {shown}; tables {tables}")
    for error in session.errors:
        click.echo(f"server: {error}", err=True)
    if not session.rated:  # a failed validation, a bot that broke off, a server that refused
        if session.validation is None:
            click.echo(f"no set was played (the socket closed with code {session.close_code})", err=True)
        raise SystemExit(1)
