"""The ladder's frozen reference bots: a manifest of what each is, so that a rating measured
against one today means the same next year.

A reference bot is a built-in bot at a fixed search budget, frozen at an engine version. Its
ratings (docs/ladder.md, measured by the arena) hold for the rules they were measured under, so
the manifest carries each preset's rules hash: when a preset's rules change, the hash changes,
a test notices that docs/ladder.md no longer matches, and the ratings are measured again. The
server's ladder (:mod:`xueliu.server.ladder`) seats these bots to fill a short queue and rates
everyone on one scale with them, anchored at ``random`` = 0.

To add a bot (a learned policy, say), add a :class:`ReferenceBot` to :data:`REFERENCE_BOTS`,
measure it with the command docs/ladder.md gives, and add its line there.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from ._version import __version__
from ._xueliu import Bot, Rules


@dataclass(frozen=True)
class ReferenceBot:
    """One frozen reference bot: its built-in ``name`` (what ``Bot`` and the arena take), the
    engine version it is frozen at, what it may spend per decision, and whether the server's
    ranked queue seats it to fill a table."""

    name: str
    engine: str
    budget: str
    fills: bool = True


#: The reference bots, in the order the ranked queue seats them when it fills a table.
REFERENCE_BOTS: tuple[ReferenceBot, ...] = (
    ReferenceBot("random", "0.1.0", "none: a uniformly random legal action"),
    ReferenceBot("greedy", "0.1.0", "one ply: the lowest shanten, then the most live waits (docs/bots.md)"),
    ReferenceBot("ismcts:25", "0.1.0", "25 playouts per decision"),
    ReferenceBot("ismcts:100", "0.1.0", "100 playouts per decision", fills=False),
)


def reference_names() -> list[str]:
    """The reference bots' names."""
    return [bot.name for bot in REFERENCE_BOTS]


def rules_hash(preset: str) -> str:
    """The first 16 hex digits of SHA-256 over the preset's rules (``Rules.to_dict()`` as JSON with
    sorted keys): a rating measured under one hash holds for those rules only."""
    rules = Rules.preset(preset).to_dict()
    return hashlib.sha256(json.dumps(rules, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:16]


def manifest() -> dict[str, Any]:
    """The manifest as JSON: the engine running now, and each reference bot with its version,
    budget and the rules hash of every preset it is rated under."""
    hashes = {preset: rules_hash(preset) for preset in Rules.presets()}
    bots = []
    for bot in REFERENCE_BOTS:
        Bot(bot.name)  # a name the engine no longer knows fails here
        bots.append({"name": bot.name, "engine": bot.engine, "budget": bot.budget, "fills": bot.fills})
    return {"engine": __version__, "bots": bots, "rules": hashes}
