"""Where a command's shards run, as the command line chooses it: ``--processes N`` or
``--ray [ADDRESS]``, the same two options and the same choice for ``xueliu simulate`` and
``xueliu arena`` (docs/bots.md, "Shards")."""

from __future__ import annotations

from typing import Any, Callable, Optional, TypeVar

import click

Command = TypeVar("Command", bound=Callable[..., Any])


def shard_options(work: str) -> Callable[[Command], Command]:
    """Adds ``--processes`` and ``--ray`` to a command; ``work`` names what its shards hold
    (``games``, ``deals``)."""

    def add(command: Command) -> Command:
        command = click.option(
            "--ray",
            "ray_address",
            is_flag=False,
            flag_value="",
            default=None,
            metavar="[ADDRESS]",
            help=f"Play shards of {work} on Ray: a local Ray, or the cluster at ADDRESS (auto, HOST:6379) "
            'or RAY_ADDRESS. Needs pip install "xueliu[ray]". The same result.',
        )(command)
        return click.option(
            "--processes",
            type=click.IntRange(1),
            default=1,
            show_default=True,
            help=f"Worker processes, each playing shards of {work} on one thread (1: this process only). "
            "The same result.",
        )(command)

    return add


def shard_executor(processes: int, ray_address: Optional[str]) -> Any:
    """The executor the options chose (``shards.Processes`` or ``shards.Ray``), or None for this
    process alone; a Ray that is not installed fails with how to install it."""
    if ray_address is not None and processes > 1:
        raise click.UsageError("--processes and --ray each choose where the shards run: give one")
    if ray_address is None and processes == 1:
        return None
    from . import shards

    try:
        return shards.Ray(ray_address or None) if ray_address is not None else shards.Processes(processes)
    except ImportError as e:
        raise click.ClickException(str(e)) from None
