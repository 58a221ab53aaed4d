"""The events of ``Game.events`` as types: one ``TypedDict`` per event ``type`` (docs/game-protocol.md
§9), and :data:`Event`, their union tagged by ``"type"``. A checker narrows an event by its type::

    for e in game.events:
        if e["type"] == "win":
            print(e["seat"], e["score"]["fan"])

The same types describe ``Game.events_for(seat)`` and ``Game.public_events()``, where the fields
hidden from the viewer (RULES.md §12) are ``None``: the ``start`` seed, another seat's ``deal``
tiles (with a ``count``), ``draw`` tile, ``exchange`` lists and ``win`` hand, and under ``win_reveal =
"hand_end"`` until the hand is over another seat's ``win`` score and self-drawn tile (a ``reveal``
event before the ``end`` shows them). Tiles are their names,
``"5m"``. Keys written only sometimes are optional: ``dealer_given`` (a dealer given by a match),
``count`` (a hidden deal) and ``wilds`` (melds in the 幺鸡 variant). A test holds these types to every
event the engine writes.
"""

from __future__ import annotations

from typing import Any, Literal, Optional, TypedDict, Union

__all__ = [
    "Suit",
    "WinKind",
    "KongKind",
    "Direction",
    "Claim",
    "PaymentReason",
    "EndReason",
    "Bonus",
    "ScoreDict",
    "StartEvent",
    "DiceEvent",
    "DealEvent",
    "ExchangeEvent",
    "RedealEvent",
    "VoidEvent",
    "DrawEvent",
    "DiscardEvent",
    "PassEvent",
    "PongEvent",
    "KongEvent",
    "SwapEvent",
    "BeatenEvent",
    "RobbedEvent",
    "WinEvent",
    "RevealedWin",
    "RevealEvent",
    "PaymentEvent",
    "AbandonEvent",
    "EndEvent",
    "Event",
]

Suit = Literal["m", "p", "s"]
WinKind = Literal["discard", "self_draw", "robbed_kong"]
KongKind = Literal["direct", "added", "concealed"]
Direction = Literal["counterclockwise", "clockwise", "opposite"]
Claim = Literal["win", "kong", "pong"]
PaymentReason = Literal[
    "win",
    "self_draw",
    "kong_flower_feeder",
    "kong",
    "kong_transfer",
    "flower_pig",
    "not_ready",
    "ready_difference",
    "tax_refund",
    "escape",
]
EndReason = Literal["three_won", "wall_empty", "abandoned"]


class Bonus(TypedDict):
    """One bonus of a score: its name, how many times it counts and the fan it adds."""

    name: str
    count: int
    fan: int


class ScoreDict(TypedDict):
    """``Score.to_dict()``, as a ``win`` event's ``score``."""

    pattern: str
    pattern_fan: int
    bonuses: list[Bonus]
    fan: int
    capped_fan: int
    multiplier: int
    extra_points: int
    points: int


class _Start(TypedDict):
    type: Literal["start"]
    seed: Optional[int]
    rules: dict[str, Any]
    dealer: int


class StartEvent(_Start, total=False):
    """The hand begins: its seed (hidden from a viewer), rules (``Rules.to_dict()``) and dealer;
    ``dealer_given`` (only ever true) when a match named the dealer."""

    dealer_given: bool


class DiceEvent(TypedDict):
    """Dice thrown: for the ``dealer`` every seat's rolls, rerolls appended (``seat`` null), else
    one seat's roll: one die, or two for the wall under ``wall_break_dice = 2``."""

    type: Literal["dice"]
    purpose: Literal["dealer", "wall", "exchange"]
    seat: Optional[int]
    rolls: Union[list[int], list[list[int]]]


class _Deal(TypedDict):
    type: Literal["deal"]
    seat: int
    tiles: Optional[list[str]]


class DealEvent(_Deal, total=False):
    """A seat's dealt tiles, sorted; for another viewer null, with their ``count``."""

    count: int


class ExchangeEvent(TypedDict):
    """换三张: what each seat gave and received; a viewer sees only its own two lists."""

    type: Literal["exchange"]
    direction: Direction
    given: list[Optional[list[str]]]
    received: list[Optional[list[str]]]


class RedealEvent(TypedDict):
    """Every seat got back what it gave: the hand is dealt again."""

    type: Literal["redeal"]


class VoidEvent(TypedDict):
    """定缺: a seat's void suit, one event per seat once all have declared."""

    type: Literal["void"]
    seat: int
    suit: Suit


class DrawEvent(TypedDict):
    """A draw, from the back of the wall when ``replacement`` (after a kong); the tile is
    hidden from the other seats."""

    type: Literal["draw"]
    seat: int
    tile: Optional[str]
    replacement: bool


class DiscardEvent(TypedDict):
    type: Literal["discard"]
    seat: int
    tile: str


class PassEvent(TypedDict):
    """A seat declined the claims it ``could`` make on a discard or kong; only the seat itself
    sees it."""

    type: Literal["pass"]
    seat: int
    on: Literal["discard", "kong"]
    could: list[Claim]


_Pong = TypedDict("_Pong", {"type": Literal["pong"], "seat": int, "tile": str, "from": int})


class PongEvent(_Pong, total=False):
    """碰 of ``from``'s discard; ``wilds``: the wilds the pong holds (幺鸡 variant only)."""

    wilds: int


_Kong = TypedDict(
    "_Kong",
    {"type": Literal["kong"], "seat": int, "tile": str, "kind": KongKind, "from": Optional[int], "late": bool},
)


class KongEvent(_Kong, total=False):
    """杠, declared; ``from`` the discarder of a direct kong's tile; ``wilds``: the wilds the kong
    holds once made (幺鸡 variant only)."""

    wilds: int


class SwapEvent(TypedDict):
    """幺鸡换: the tile went into the seat's kong of it, one of the kong's wilds to the hand."""

    type: Literal["swap"]
    seat: int
    tile: str


class BeatenEvent(TypedDict):
    """A seat's pong or kong claim lost to a win."""

    type: Literal["beaten"]
    seat: int
    claim: Literal["pong", "kong"]


class RobbedEvent(TypedDict):
    """The kong of ``seat`` was robbed (抢杠) and did not stand."""

    type: Literal["robbed"]
    seat: int
    tile: str


WinEvent = TypedDict(
    "WinEvent",
    {
        "type": Literal["win"],
        "seat": int,
        "tile": Optional[str],
        "from": Optional[int],
        "kind": WinKind,
        "hand": Optional[list[str]],
        "score": Optional[ScoreDict],
    },
)
"""A win: ``from`` null if self-drawn; ``hand``, the concealed tiles before the win, sorted (null
for another viewer). Under ``win_reveal = "hand_end"`` another viewer sees a null ``score``, and
a null ``tile`` on a self-draw, until the hand is over."""


RevealedWin = TypedDict(
    "RevealedWin",
    {
        "seat": int,
        "tile": str,
        "from": Optional[int],
        "kind": WinKind,
        "hand": list[str],
        "score": ScoreDict,
    },
)
"""One win as a ``reveal`` event shows it: a full log's ``win`` event without its ``type``."""


class RevealEvent(TypedDict):
    """``win_reveal = "hand_end"``: the hand is ending; every win of it in full, in the order
    made. The wins' payments follow, then the ``end``."""

    type: Literal["reveal"]
    wins: list[RevealedWin]


class PaymentEvent(TypedDict):
    type: Literal["payment"]
    payer: int
    payee: int
    amount: int
    reason: PaymentReason


class AbandonEvent(TypedDict):
    """逃跑: the seat left the hand; its ``escape`` payments and the ``end`` follow."""

    type: Literal["abandon"]
    seat: int


class EndEvent(TypedDict):
    type: Literal["end"]
    reason: EndReason
    scores: list[int]


Event = Union[
    StartEvent,
    DiceEvent,
    DealEvent,
    ExchangeEvent,
    RedealEvent,
    VoidEvent,
    DrawEvent,
    DiscardEvent,
    PassEvent,
    PongEvent,
    KongEvent,
    SwapEvent,
    BeatenEvent,
    RobbedEvent,
    WinEvent,
    PaymentEvent,
    AbandonEvent,
    RevealEvent,
    EndEvent,
]
"""Any event of the log, tagged by its ``"type"``."""
