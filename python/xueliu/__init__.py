"""xueliu: a fast, exact engine for Sichuan mahjong (血战到底, 血流成河, 换三张, 定缺, 幺鸡).

The work happens in Rust (``xueliu._xueliu``); this package re-exports it. Hands are given as a
string (``"23445677m345789p"``, or with 万/筒/条), a sequence of :class:`Tile` or indices 0–26,
or 27 tile counts. A room's rules are a :class:`Rules` (``Rules.preset("chengdu", cap_fan=4)``);
:func:`score` scores a win under them and :func:`best_waits` values a ready hand's waits.
:class:`Bot` plays any seat of a :class:`Game`; :class:`Match` plays hands in a row (dealer rotation, running totals); :func:`simulate` plays many hands with bots and
:func:`compare_bots` rates two bots by duplicate evaluation (docs/bots.md).
``xueliu.reference`` holds a slow pure-Python version of the same rules, used to test the fast one.
``xueliu.events`` types the event log (``Game.events``): a ``TypedDict`` per event type.
For learning agents: action ids (``Action.id``, ``Game.action_mask``), observations
(``Game.observe``), :class:`VecEnv` (many hands stepped in Rust) and, with the ``rl`` extra,
``xueliu.env`` (PettingZoo and Gymnasium environments); docs/encoding.md describes them.
``xueliu.shards`` runs :func:`simulate` and :func:`compare_bots` over processes or Ray, with the
one-process result. Both submodules load on first use, so ``import xueliu`` imports neither
Gymnasium nor Ray.

A docstring citing a page ``docs/…md`` (and a section, ``§N``) means a page of xueliu's
documentation: the ``docs/`` folder of the source distribution and repository, which holds the
rule specification (``RULES.md``), the game protocol, the presets and three guides (playing a
hand, embedding in a server, training an agent). ``xueliu --help`` and ``xueliu rules``
answer most questions without them.
"""

import importlib as _importlib
import types as _types

from . import _gym, batch
from ._arena import Played, arena, compare_bots, simulate
from ._arena_report import ArenaResult, Pair, Sprt
from ._packed import unpack_observations
from ._version import __version__ as __version__
from ._xueliu import (
    ACTION_COUNT,
    OBS_LAYOUT,
    OBS_PACKED_BITS,
    OBS_PACKED_SHAPE,
    OBS_SHAPE,
    UNREACHABLE,
    Action,
    ArgumentError,
    ArgumentTypeError,
    Bot,
    BotError,
    Comparison,
    ConcurrentUseError,
    Decomposition,
    Game,
    HandFacts,
    IllegalActionError,
    InvalidHandError,
    Match,
    Meld,
    Rules,
    RulesError,
    Score,
    ScoreError,
    SimulationResult,
    SnapshotError,
    Tile,
    TileParseError,
    VecEnv,
    Win,
    XueliuError,
    action_id_name,
    best_waits,
    decompositions,
    format_tiles,
    hand_facts,
    is_win,
    load_policy,
    parse_tiles,
    score,
    shanten,
    waits,
)
from .players import ProcessBot

__all__ = [
    "ACTION_COUNT",
    "OBS_LAYOUT",
    "OBS_PACKED_BITS",
    "OBS_PACKED_SHAPE",
    "OBS_SHAPE",
    "UNREACHABLE",
    "Action",
    "ArgumentError",
    "ArenaResult",
    "ArgumentTypeError",
    "Bot",
    "BotError",
    "Comparison",
    "ConcurrentUseError",
    "Decomposition",
    "Game",
    "HandFacts",
    "IllegalActionError",
    "InvalidHandError",
    "Match",
    "Meld",
    "Pair",
    "Played",
    "ProcessBot",
    "SnapshotError",
    "Rules",
    "RulesError",
    "Score",
    "ScoreError",
    "SimulationResult",
    "Sprt",
    "Tile",
    "TileParseError",
    "VecEnv",
    "Win",
    "XueliuError",
    "action_id_name",
    "arena",
    "batch",
    "best_waits",
    "compare_bots",
    "decompositions",
    "format_tiles",
    "hand_facts",
    "is_win",
    "load_policy",
    "parse_tiles",
    "score",
    "shanten",
    "simulate",
    "unpack_observations",
    "waits",
]

_SUBMODULES = ("env", "shards")

_gym.register_with_gymnasium()  # gymnasium.make("xueliu/Chengdu-v0") on Gymnasium 1.x, no import


def __getattr__(name: str) -> _types.ModuleType:
    """``xueliu.env`` and ``xueliu.shards`` on first use (PEP 562)."""
    if name in _SUBMODULES:
        return _importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
