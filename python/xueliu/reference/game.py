"""One hand of Sichuan mahjong as a slow, plain state machine, written from the specification.

The contract is docs/game-protocol.md (cited "P§n"), the rules are docs/RULES.md ("R§n"), the
rules dict follows docs/rules-schema.md. Nothing here is derived from the Rust engine: a
differential test plays both and requires the same legal actions, the same event log and the
same scores, so every reading this module makes where the documents leave a choice is listed in
``READINGS`` below (and must match the engine's).

Style: lists of 27 tile counts, lists of dicts, straightforward loops; things are recomputed
rather than cached. Wins and waits come from ``reference.hand``; fan and points from
``reference.scoring``; money moves in ``reference.settlement``.

READINGS (where the documents are silent or ambiguous):

1.  ``first_dealer = "dice"``: one ``dice`` event (purpose ``dealer``), logged right after
    ``start``; ``rolls[i]`` holds every die seat i rolled, in order (two per round it took part
    in), so a seat that dropped out of a tie-break has fewer values. No event for ``"east"`` or
    ``"random"``.
2.  Event order at the start: ``start``, [``dice`` dealer], ``dice`` wall, ``deal`` x4 in dealing
    order (the dealer first, then turn order; the dealer's event holds 14 tiles).
3.  The exchange die (``exchange = "dice"``) is logged as ``dice`` with ``seat`` = the dealer,
    after the last pick is in and before the ``exchange`` event. A redeal logs ``exchange`` first,
    then ``redeal``, then the new ``dice`` wall and ``deal`` events.
4.  A seat that has decided in a simultaneous decision leaves ``to_act()`` and cannot change its
    decision; ``legal_actions`` of a seat not in ``to_act()`` is empty.
5.  天胡 and the dealer's first turn have no "tile just drawn": the heavenly winning tile (set
    aside in 血流, logged as ``tile``) is the highest-index tile of the 14; the default discard is
    the highest-index tile, as after a pong.
6.  ``win`` event ``hand``: the sorted concealed tiles without the winning tile, for every kind
    (so ``hand`` + ``tile`` + melds is the winning hand).
7.  A claimed discard (pong, direct kong, win) leaves the discarder's ``discards``. A won tile,
    in both modes, leaves the hand and is set aside (``hand`` of a 血战 winner is 13 tiles).
    With several winners on one discard the one physical tile is set aside once.
8.  ``pass`` ``could`` lists the declined claims in the order win, kong, pong.
9.  过胡: any answer but ``win`` declines an offered win (a pong or kong chosen instead locks
    too, R§6); the fan compared
    under ``until_draw_unless_higher`` is the score's ``capped_fan`` (no kong_fan addition); the
    lock lifts on the seat's next draw of any kind.
10. ``last_four``: a robbed kong's tile is "in the last four" when the wall holds at most four
    tiles as the kong is declared; robbing wins are forced under ``"forced"`` and
    ``"ron_forced"``. The dealer's first turn draws nothing, so 天胡 is never forced.
11. Late kongs (P§5, P§10): a replacement draw after a concealed or added kong continues the
    seat's turn; after a direct kong it starts a new one. ``late`` in the ``kong`` event is
    the definition's value whatever ``late_kong`` says (a ``"full"`` or a pong-with-three kong
    under ``"kept_fourth_forbidden"`` logs ``late: true``). A ``"root_only"`` late added kong
    (a late 暗杠 is a full kong under it, R§6) scores
    one 根 (``gen``) instead of its kong fan (with ``gen_counts_kongs`` it only loses its kong
    fan), and adds nothing to its owner's ``kong_fan = "win_and_loss"`` fan as a payer.
12. 血流 locked hands: a kong is allowed when ``waits`` (reference.hand, the 13 tiles plus melds)
    of the hand after the kong equal ``waits`` of the locked hand before the draw; any kong the
    turn rules allow is tried this way (the tile need not be the one just drawn). Set-aside
    winning tiles are not part of the hand for ``waits`` or ``is_win``.
13. 地胡: a self-drawn win by a non-dealer on its first (ordinary) draw, when no pong has been
    made and no kong has stood in the hand (a robbed kong does not count). Earlier wins do not
    matter: a seat whose first draw comes after someone won on a discard, or a 血流 seat that won
    on a discard before its first draw and then self-draws on it, still scores 地胡.
14. ``kong_fan = "win_and_loss"`` with a cap: the payer's kong fan is added to the winner's
    uncapped ``fan``, then the cap, then the curve (+ base for ``self_draw_bonus = "add_base"``).
15. Direct-kong payment: the discarder pays even when it has won (血流). Added/concealed kong
    payments: each other seat that has not won.
16. 点杠花 (self-drawn win on the replacement of a direct kong; the latest kong counts):
    ``feeder_pays_all`` is one payment, reason ``kong_flower_feeder``, of the sum the payers of
    a self-draw would have paid (each with its own win_and_loss addition), even if the feeder
    is not one of them; ``as_discard_win`` is one payment, reason ``win``, as if the feeder had
    discarded the tile (its own win_and_loss addition). The score is still the self-drawn one.
17. 呼叫转移 ``refund_to_payers`` happens once per discard, right after the first winner's (in
    turn order from the discarder) own payment. ``all_kongs`` transfers everything the
    discarder's kongs were paid this hand, even income transferred before.
18. 流局: a seat's value is the best ``points`` over ``best_waits`` of its current hand (root-only
    kongs adjusted as in 11); ready means ``best_waits`` is not empty (winners in 血流 always).
    In 血战 a winner is not "ready" for 查叫/补差价 or for ``flower_pig_payees = "ready"``; for
    ``"ready_or_won"`` it is a payee and, under ``double_ready_value``, is paid twice its own
    hand's value. 退税 payments are summed per (payer, payee) pair, and reach every payer, in 血战
    a seat that has since won too (R§9.4). ``flower_pig_penalty = "cap"`` needs ``cap_fan``.
19. ``melds(seat)`` is this module's own shape: ``{"kind": "pong"|"kong", "tile", "from",
    "kong": null|"direct"|"added"|"concealed", "late"}``.
20. ``events_for``: a hidden ``deal`` becomes ``{"type", "seat", "tiles": null, "count"}``; the
    seat's own ``deal`` has no ``count``.
21. 杠上炮 (``kong_shot``) is a discard made on a turn that began with a replacement draw; 杠上花 a
    self-drawn win on such a turn; 点杠花 when the kong that gave that replacement was direct.
    Under ``kong_shot_on_rob`` (N9) robbing an add kong declared on such a turn is 杠上炮 as well
    as 抢杠, and the kong before it pays back as on any 杠上炮 (``kong_income_transfer``).
22. Holding void-suit tiles does not stop a pong or kong of another suit (only the discard rule
    binds). A direct-kong response action carries its tile: ``{"kind": "kong", "tile": "5m"}``.
23. A robbed added kong leaves the pong in place; a robbed concealed kong puts the other three
    back in the owner's hand. The robbing wins pay as wins on the owner's discard (reason ``win``).
24. Fours dealt or received in the exchange arrive on the seat's turn 1, even when that turn is
    the one after a pong (P§5); a seat's turns are counted from 1.
25. 呼叫转移 with nothing to transfer (the last kong was root-only, or no kong payments) logs no
    payment; a 点杠花 ``feeder_pays_all`` with no payers logs none either.

幺鸡 (``wilds``, P§11; the protocol fixes most of it, these are the gaps):

26. Late kongs with wilds: each kind (a natural tile, or ``1s``) remembers the turn a copy of it
    last arrived (dealt or received in the exchange: turn 1; drawn; a wild swapped back). Tiles a
    robbed concealed kong gives back to its owner do not arrive again.
27. The default discard when the turn's drawn tile is a wild (drawn, or standing for a drawn tile
    swapped into a kong): the highest-index tile that may be discarded, as after a pong.
28. 查叫 value of a seat holding fewer than 13 tiles (a non-dealer that won on its dealt four
    wilds keeps 12): not ready. It is read only under ``double_ready_value``.
29. ``melds(seat)`` adds ``"wilds"`` (the wilds the meld holds) under the wild rules only.

Above one hand (R§2, P§13):

30. 逃跑 (``abandon``): allowed in any phase before the end; "within the last four tiles" is a
    wall of four tiles or fewer; a seat's 查大叫 amount is its 查叫 value (0 when not ready), a
    seat on the move (14 tiles) valued at its best discard; nothing but the penalty is settled.
31. ``next_dealer``: the first win is "several on one discard" when the next win took the same
    claim (the same discard, or the same robbed kong); then the discarder (kong owner) deals.

Seen and paid when the hand ends (N18, ``win_reveal = "hand_end"``, MIL SBR 2025 Art.9-1, 10-2):

32. A win's own payments (``win``, ``self_draw``, ``kong_flower_feeder``) are worked out when it
    is made (who had won then, the payers' kongs then) and owed; 呼叫转移 and kong payments
    stay immediate (they show only kong income, which is public). As the hand ends (before
    流局's settlement, after a leaver's penalty) a ``reveal`` event lists every win as the full
    log's ``win`` event shows it, less its ``type``; the owed payments follow in the order owed.
    Until the hand is over another viewer sees a win's ``score`` null and a self-draw's ``tile``
    null.
"""

from __future__ import annotations

import copy
import itertools
from typing import Any, Iterable, Sequence

from . import hand as analysis
from . import settlement
from .hand import is_win, waits
from .presets import PRESETS
from .rng import SplitMix64
from .tiles import parse_tiles

SUITS = "mps"
WILD = 18  # 1s: a wild (幺鸡) under ``rules["wilds"]`` (P§11)
EXCHANGE_DIRECTIONS = ("counterclockwise", "clockwise", "opposite")
# P§1.5 / R§4: seed 000's die read as "you receive from": 1, 3, 5 opposite; 2, 6 下家; 4 上家.
DIE_DIRECTION = {1: "opposite", 2: "clockwise", 3: "opposite", 4: "counterclockwise", 5: "opposite", 6: "clockwise"}
# R§4: whom seat i receives from, as an offset: counterclockwise gives to i+1, so receives from i+3.
RECEIVE_FROM = {"counterclockwise": 3, "clockwise": 1, "opposite": 2}


class IllegalActionError(ValueError):
    """An action that is not legal now (P§2); the game is left exactly as it was."""


def name(tile: int) -> str:
    return f"{tile % 9 + 1}{SUITS[tile // 9]}"


def names(tiles: Iterable[int]) -> list[str]:
    return [name(t) for t in sorted(tiles)]


def tiles_of(counts: Sequence[int]) -> list[int]:
    return [t for t in range(27) for _ in range(counts[t])]


def suit_of(tile: int) -> int:
    return tile // 9


def _tile_index(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 27:
        return value
    if isinstance(value, str):
        try:
            parsed = parse_tiles(value)
        except ValueError:
            parsed = []
        if len(parsed) == 1:
            return parsed[0]
    raise IllegalActionError(f"not a tile: {value!r}")


def resolve_rules(rules: dict | str) -> dict:
    """A preset name, or a rules dict in the schema (filled from its ``preset`` when keys are missing)."""
    if isinstance(rules, str):
        if rules not in PRESETS:
            raise ValueError(f"unknown preset {rules!r}; valid presets: {', '.join(PRESETS)}")
        return copy.deepcopy(PRESETS[rules])
    if not isinstance(rules, dict):
        raise TypeError(f"rules must be a preset name or a dict, not {type(rules).__name__}")
    full = copy.deepcopy(rules)
    base = PRESETS.get(rules.get("preset") or "")
    if base is not None:
        for key, value in base.items():
            full.setdefault(key, copy.deepcopy(value))
    return full


class Game:
    """One hand, from the shuffle to the last payment (P§1-§9)."""

    def __init__(self, rules: dict | str, seed: int, dealer: int | None = None) -> None:
        """``dealer`` deals when given (a match's next hand, R§2): no first-dealer draw is made."""
        if dealer is not None and dealer not in range(4):
            raise IllegalActionError(f"dealer {dealer} does not exist; seats are 0-3")
        self._init_state(resolve_rules(rules), seed)
        if dealer is None:
            dealer, dealer_rolls = self._choose_dealer()
            self._log("start", seed=seed, rules=copy.deepcopy(self.rules), dealer=dealer)
        else:
            dealer_rolls = None
            self._log("start", seed=seed, rules=copy.deepcopy(self.rules), dealer=dealer, dealer_given=True)
        self.dealer = dealer
        if dealer_rolls is not None:
            self._log("dice", purpose="dealer", seat=None, rolls=dealer_rolls)
        self._deal()
        self._after_deal()

    # --- construction ---------------------------------------------------------------------------

    def _init_state(self, rules: dict, seed: int) -> None:
        if rules.get("wilds") and rules["mode"] == "xueliu":
            raise ValueError("wilds (幺鸡) are played in xuezhan only (P§11)")
        if rules.get("wilds") and rules["cap_fan"] is None:
            raise ValueError("wilds (幺鸡) need cap_fan: four wilds win at the cap (P§11)")
        if rules["flower_pig_penalty"] == "cap" and rules["cap_fan"] is None:
            raise ValueError("flower_pig_penalty 'cap' needs cap_fan")
        self.rules = rules
        self._wild_rules = bool(rules.get("wilds"))
        self.seed = seed
        self._rng = SplitMix64(seed)
        self.events: list[dict] = []
        self._scores = [0, 0, 0, 0]
        self._owed: list[tuple[int, int, int, str]] = []  # N18: (payer, payee, amount, reason)
        self.dealer = 0
        self.phase = "exchange"
        self._stage = "exchange"  # exchange, void, turn, discard, kong, over
        self.wall: list[int] = []
        self._hands = [[0] * 27 for _ in range(4)]
        self._melds: list[list[dict]] = [[], [], [], []]
        self._discards: list[list[int]] = [[], [], [], []]
        self._voids: list[int | None] = [None] * 4
        self._won = [False] * 4
        self.wins: list[dict] = []
        self._set_aside: list[int] = []  # physical winning tiles (R§7: set aside)
        # simultaneous decisions: seat -> legal actions, and the hidden decisions made so far
        self._options: dict[int, list[dict]] | None = None
        self._decided: dict[int, dict] = {}
        self._claim: dict | None = None  # what the responses are about (a discard or a kong)
        # the turn
        self._current = 0
        self._turn_kind = "first"  # first, draw, replacement, pong
        self._drawn: int | None = None
        self._draw_wall_before: int | None = None
        self._turn_no = [0] * 4  # P§5: each time the seat is to move
        self._draw_count = [0] * 4  # ordinary draws, for 地胡
        self._fourth_arrival: list[dict[int, int]] = [{}, {}, {}, {}]
        self._arrival: list[dict[int, int]] = [{}, {}, {}, {}]  # P§11: turn each kind last arrived
        self._any_claim = False  # a pong made or a kong stood in this hand (地胡)
        self._win_lock: list[int | None] = [None] * 4  # 过胡: fan of the declined win
        self._kongs: list[dict] = []  # every kong that stood, with who paid it
        self._last_kong: list[dict | None] = [None] * 4
        self._win_claims: list[dict | None] = []  # per win: the claim (discard or kong) it took
        self.leaver: int | None = None  # 逃跑 (R§2)

    @classmethod
    def from_position(
        cls,
        rules: dict | str,
        hands: Sequence[str],
        wall: str | Sequence[int],
        *,
        dealer: int = 0,
        voids: Sequence[str | None] | None = None,
        melds: Sequence[Sequence[str]] | None = None,
        first_draw: int | None = None,
        seed: int = 0,
    ) -> Game:
        """Test-only: start the play phase from given hands and wall (its front first).

        ``melds`` per seat: pongs ``"555m"`` and direct kongs ``"5555m"`` (claimed from the previous
        seat), concealed kongs ``"[5555m]"``; they come with no payment history. With
        ``first_draw`` the given seat draws first (every hand holds 13 tiles counting melds);
        otherwise the dealer starts its first turn with 14.
        """
        game = cls.__new__(cls)
        game._init_state(resolve_rules(rules), seed)
        game.dealer = dealer
        game._log("start", seed=seed, rules=copy.deepcopy(game.rules), dealer=dealer)
        game.wall = parse_tiles(wall) if isinstance(wall, str) else list(wall)
        for seat in range(4):
            for tile in parse_tiles(hands[seat]):
                game._hands[seat][tile] += 1
            for text in melds[seat] if melds else ():
                concealed = text.startswith("[")
                tiles = parse_tiles(text.strip("[]"))
                natural = [t for t in tiles if not (game._wild_rules and t == WILD)]
                assert len(tiles) in (3, 4) and natural and len(set(natural)) == 1, text
                kind = None if len(tiles) == 3 else "concealed" if concealed else "direct"
                game._melds[seat].append(
                    {
                        "type": "pong" if kind is None else "kong",
                        "tile": natural[0],
                        "from": None if concealed else (seat + 3) % 4,
                        "kind": kind,
                        "late": False,
                        "root_only": False,
                        "pong_with_three": False,
                        "wilds": len(tiles) - len(natural),
                    }
                )
            if voids is not None and voids[seat] is not None:
                game._voids[seat] = SUITS.index(voids[seat])
        game._start_play(first_draw=first_draw)
        return game

    @classmethod
    def replay(cls, rules: dict | str, seed: int, actions: Iterable[tuple[int, dict]]) -> Game:
        """A fresh game with the ``(seat, action)`` pairs played in order."""
        game = cls(rules, seed)
        for seat, action in actions:
            game.act(seat, action)
        return game

    def _choose_dealer(self) -> tuple[int, list[list[int]] | None]:
        """P§1.1: east, below(4), or two dice per seat with tied seats rolling again."""
        how = self.rules["first_dealer"]
        if how == "east":
            return 0, None
        if how == "random":
            return self._rng.below(4), None
        rolls: list[list[int]] = [[], [], [], []]
        contenders = [0, 1, 2, 3]
        while True:
            totals = {}
            for seat in contenders:
                a, b = self._rng.die(), self._rng.die()
                rolls[seat] += [a, b]
                totals[seat] = a + b
            best = max(totals.values())
            contenders = [seat for seat in contenders if totals[seat] == best]
            if len(contenders) == 1:
                return contenders[0], rolls

    def _deal(self) -> None:
        """P§1.2-4: shuffle the 108 tiles in index order, the wall-break dice, 13 each from the front."""
        wall = [t for t in range(27) for _ in range(4)]
        self._rng.shuffle(wall)
        # N17: a second die (MIL Art.5-8) is thrown after the shuffle, so the wall is the same.
        rolls = [self._rng.die() for _ in range(self.rules["wall_break_dice"])]
        self._log("dice", purpose="wall", seat=self.dealer, rolls=rolls)
        self._hands = [[0] * 27 for _ in range(4)]
        order = [(self.dealer + k) % 4 for k in range(4)]
        position = 0
        for seat in order:
            for _ in range(13):
                self._hands[seat][wall[position]] += 1
                position += 1
        self._hands[self.dealer][wall[position]] += 1
        position += 1
        self.wall = wall[position:]
        for seat in order:
            self._log("deal", seat=seat, tiles=names(tiles_of(self._hands[seat])))

    def _after_deal(self) -> None:
        if self.rules["exchange"] is not None:
            self.phase = self._stage = "exchange"
            self._ask({seat: self._exchange_actions(seat) for seat in range(4)})
        else:
            self._after_exchange()

    def _after_exchange(self) -> None:
        if self.rules["declare_void"]:
            self.phase = self._stage = "void"
            self._ask({seat: [{"kind": "void", "suit": s} for s in SUITS] for seat in range(4)})
        else:
            self._start_play()

    def _start_play(self, first_draw: int | None = None) -> None:
        """The dealer's first turn with 14 tiles (P§2); dealt or exchanged fours arrive on turn 1 (P§5)."""
        self.phase = "play"
        self._options = None
        for seat in range(4):
            for tile in range(27):
                if self._hands[seat][tile] == 4:
                    self._fourth_arrival[seat][tile] = 1
                if self._hands[seat][tile]:
                    self._arrival[seat][tile] = 1
        dealt_four = [s for s in range(4) if self._wild_rules and self._hands[s][WILD] == 4]
        if first_draw is None and dealt_four and dealt_four[0] != self.dealer:
            # P§11: four wilds dealt to a non-dealer: a turn of its own, win its only action,
            # before the dealer's first turn.
            self._begin_turn(dealt_four[0], "dealt", None, None)
        elif first_draw is None:
            self._begin_turn(self.dealer, "first", None, None)
        else:
            self._draw(first_draw, replacement=False)

    # --- public view ----------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def scores(self) -> list[int]:
        return list(self._scores)

    @property
    def wall_remaining(self) -> int:
        return len(self.wall)

    def hand(self, seat: int) -> list[str]:
        return names(tiles_of(self._hands[seat]))

    def melds(self, seat: int) -> list[dict]:
        out = []
        for m in self._melds[seat]:
            meld = {"kind": m["type"], "tile": name(m["tile"]), "from": m["from"], "kong": m["kind"], "late": m["late"]}
            if self._wild_rules:
                meld["wilds"] = m["wilds"]  # P§11
            out.append(meld)
        return out

    def discards(self, seat: int) -> list[str]:
        return [name(t) for t in self._discards[seat]]

    def void(self, seat: int) -> str | None:
        v = self._voids[seat]
        return None if v is None else SUITS[v]

    def to_act(self) -> list[int]:
        if self._stage == "over":
            return []
        if self._options is not None:
            return [seat for seat in sorted(self._options) if seat not in self._decided]
        return [self._current]

    def legal_actions(self, seat: int) -> list[dict]:
        if seat not in self.to_act():
            return []
        if self._options is not None:
            return copy.deepcopy(self._options[seat])
        return self._turn_actions(seat)

    def act(self, seat: int, action: dict) -> None:
        """Play one decision; raises IllegalActionError (changing nothing) unless it is legal now."""
        if seat not in self.to_act():
            raise IllegalActionError(f"seat {seat} is not to act now; to act: {self.to_act()}")
        wanted = _normalize(action)
        legal = self.legal_actions(seat)
        if wanted not in legal:
            raise IllegalActionError(f"{action!r} is not legal for seat {seat}; legal: {legal}")
        if self._options is not None:
            self._decided[seat] = wanted
            if len(self._decided) == len(self._options):
                self._resolve()
            return
        kind = wanted["kind"]
        if kind == "win":
            self._self_draw_win(seat)
        elif kind == "kong":
            self._declare_kong(seat, _tile_index(wanted["tile"]))
        elif kind == "swap":
            self._swap(seat, _tile_index(wanted["tile"]))
        else:
            self._discard(seat, _tile_index(wanted["tile"]))

    def default_action(self, seat: int) -> dict:
        """P§2 "Default actions": what a server plays for a seat that timed out."""
        if seat not in self.to_act():
            raise IllegalActionError(f"seat {seat} is not to act now; to act: {self.to_act()}")
        legal = self.legal_actions(seat)
        hand = self._natural(seat)  # P§11: the defaults read natural tiles only
        if self._stage == "exchange":
            # R§4: among suits with at least three tiles the one with the fewest; ties m, p, s; lowest three.
            counts = [sum(hand[9 * s : 9 * s + 9]) for s in range(3)]
            suit = min((s for s in range(3) if counts[s] >= 3), key=lambda s: (counts[s], s))
            picked = [t for t in tiles_of(hand) if suit_of(t) == suit][:3]
            return {"kind": "exchange", "tiles": names(picked)}
        if self._stage == "void":
            counts = [sum(hand[9 * s : 9 * s + 9]) for s in range(3)]
            return {"kind": "void", "suit": SUITS[min(range(3), key=lambda s: (counts[s], s))]}
        if legal == [{"kind": "win"}]:
            return {"kind": "win"}
        if self._stage != "turn":
            return {"kind": "pass"}
        voids_held = [t for t in range(27) if hand[t] and self._is_void_tile(seat, t)]
        drawn = self._drawn
        if voids_held:
            tile = drawn if drawn is not None and self._is_void_tile(seat, drawn) else voids_held[0]
        elif drawn is not None and not self._is_wild(drawn):
            tile = drawn
        else:
            # after a pong, on the first turn, or when the tile just drawn is a wild (which is
            # never discarded, P§11): the highest-index tile that may be discarded.
            tile = max(self._discard_options(seat))
        return {"kind": "discard", "tile": name(tile)}

    def events_for(self, seat: int, *, start: int = 0) -> list[dict]:
        """The log as ``seat`` may see it (P§9, R§12), from its ``start``-th event."""
        seen = []
        for event in self.events:
            event = copy.deepcopy(event)
            kind = event["type"]
            if kind == "start":
                event["seed"] = None
            elif kind == "pass" and event["seat"] != seat:
                continue
            elif kind == "deal" and event["seat"] != seat:
                event = {"type": "deal", "seat": event["seat"], "tiles": None, "count": len(event["tiles"])}
            elif kind == "exchange":
                event["given"] = [lst if i == seat else None for i, lst in enumerate(event["given"])]
                event["received"] = [lst if i == seat else None for i, lst in enumerate(event["received"])]
            elif kind == "draw" and event["seat"] != seat:
                event["tile"] = None
            elif kind == "win" and event["seat"] != seat:
                event["hand"] = None
                if self.rules["win_reveal"] == "hand_end" and not self.is_over:  # READINGS 32
                    event["score"] = None
                    if event["kind"] == "self_draw":
                        event["tile"] = None
            seen.append(event)
        return seen[start:]

    def public_events(self, *, start: int = 0) -> list[dict]:
        """The log as a spectator may see it: every seat's hidden fields hidden (R§12)."""
        return self.events_for(-1, start=start)  # a viewer who holds no seat

    # --- helpers --------------------------------------------------------------------------------

    def _log(self, event_type: str, /, **fields: Any) -> None:
        event = {"type": event_type}
        for key, value in fields.items():
            event["from" if key == "from_" else key] = value
        self.events.append(event)

    def _ask(self, options: dict[int, list[dict]]) -> None:
        self._options = options
        self._decided = {}

    def _in_hand(self, seat: int) -> bool:
        """P§3: not yet won (血战), or everyone (血流)."""
        return self.rules["mode"] == "xueliu" or not self._won[seat]

    def _locked(self, seat: int) -> bool:
        """P§6: a 血流 winner's hand is locked."""
        return self.rules["mode"] == "xueliu" and self._won[seat]

    def _void_letter(self, seat: int) -> str | None:
        v = self._voids[seat]
        return None if v is None else SUITS[v]

    def _is_void_tile(self, seat: int, tile: int) -> bool:
        """A wild is never a tile of the void suit (P§11)."""
        return self._voids[seat] is not None and suit_of(tile) == self._voids[seat] and not self._is_wild(tile)

    def _is_wild(self, tile: int) -> bool:
        return self._wild_rules and tile == WILD

    def _natural(self, seat: int, counts: list[int] | None = None) -> list[int]:
        """The seat's (or ``counts``') natural tiles: the wilds' count set to 0 under the wild rules."""
        natural = list(self._hands[seat] if counts is None else counts)
        if self._wild_rules:
            natural[WILD] = 0
        return natural

    def _wilds_in(self, counts: list[int]) -> int:
        return counts[WILD] if self._wild_rules else 0

    def _meld_of(self, seat: int, tile: int) -> dict | None:
        for m in self._melds[seat]:
            if m["tile"] == tile:
                return m
        return None

    def meld_strings(self, seat: int, melds: list[dict] | None = None) -> list[str]:
        """Pongs and kongs as "555m" / "5555m"; with wilds the natural tiles then the wilds as
        1s ("55m1s", "5m111s", P§11), for reference.scoring."""
        out = []
        for m in self._melds[seat] if melds is None else melds:
            rank, suit = name(m["tile"])[0], name(m["tile"])[1]  # "5m": the rank digit, the suit
            wilds = m.get("wilds", 0)
            text = rank * ((3 if m["type"] == "pong" else 4) - wilds) + suit
            out.append(text + ("1" * wilds + "s" if wilds else ""))
        return out

    def _wins_with(self, seat: int, counts: list[int], melds: list[dict] | None = None) -> bool:
        if self._wild_rules:
            # reference.hand's analysis with the wilds counted apart (docs/wilds.md); each meld
            # enters as its natural tiles, which is all the win check reads of it (its suit and,
            # for seven pairs, that it exists).
            groups = tuple(
                (m["tile"],) * ((3 if m["type"] == "pong" else 4) - m["wilds"])
                for m in (self._melds[seat] if melds is None else melds)
            )
            hand = analysis._Hand(
                tuple(self._natural(seat, counts)),
                groups,
                self._voids[seat],
                bool(self.rules["allow_seven_pairs"]),
                counts[WILD],
            )
            return analysis._wins(hand)
        return is_win(
            counts,
            melds=self.meld_strings(seat, melds),
            void=self._void_letter(seat),
            seven_pairs=self.rules["allow_seven_pairs"],
        )

    def _waits(self, seat: int, counts: list[int], melds: list[dict]) -> list[int]:
        return waits(
            counts,
            melds=self.meld_strings(seat, melds),
            void=self._void_letter(seat),
            seven_pairs=self.rules["allow_seven_pairs"],
        )

    def _pong_of(self, seat: int, tile: int) -> dict | None:
        for m in self._melds[seat]:
            if m["type"] == "pong" and m["tile"] == tile:
                return m
        return None

    # --- the turn (P§2 "The turn") --------------------------------------------------------------

    def _begin_turn(
        self, seat: int, kind: str, drawn: int | None, wall_before: int | None, *, new_turn: bool = True
    ) -> None:
        if new_turn:
            self._turn_no[seat] += 1
        self._stage = "turn"
        self._current = seat
        self._turn_kind = kind
        self._drawn = drawn
        self._draw_wall_before = wall_before
        self._options = None
        self._decided = {}
        self._claim = None

    def _draw(self, seat: int, *, replacement: bool, new_turn: bool = True) -> None:
        """Ordinary draws take the front; a replacement the front or, with kong_draw_from back, the back.
        A replacement after a kong on the seat's own turn continues that turn (P§10, late kongs)."""
        wall_before = len(self.wall)
        if replacement and self.rules["kong_draw_from"] == "back":
            tile = self.wall.pop()
        else:
            tile = self.wall.pop(0)
        self._hands[seat][tile] += 1
        self._log("draw", seat=seat, tile=name(tile), replacement=replacement)
        self._win_lock[seat] = None  # P§7: the lock lasts until the seat's own next draw
        if not replacement:
            self._draw_count[seat] += 1
        self._begin_turn(seat, "replacement" if replacement else "draw", tile, wall_before, new_turn=new_turn)
        held = self._hands[seat][tile] + (3 if self._pong_of(seat, tile) else 0)
        if held == 4:
            self._fourth_arrival[seat][tile] = self._turn_no[seat]
        self._arrival[seat][tile] = self._turn_no[seat]

    def _self_draw_forced(self) -> bool:
        """P§2 "Forced wins": the drawn tile is among the last four when the wall held <= 4 before it."""
        return (
            self.rules["last_four"] in ("forced", "self_draw_forced")
            and self._turn_kind in ("draw", "replacement")
            and self._draw_wall_before is not None
            and self._draw_wall_before <= 4
        )

    def _turn_actions(self, seat: int) -> list[dict]:
        if self._wilds_in(self._hands[seat]) == 4:
            return [{"kind": "win"}]  # P§11: four wilds, a forced win (also a "dealt" turn)
        actions: list[dict] = []
        if self._turn_kind != "pong":  # P§2: after a pong only discard (c)
            if self._wins_with(seat, self._hands[seat]):
                if self._self_draw_forced():
                    return [{"kind": "win"}]
                actions.append({"kind": "win"})
            if self.wall:
                actions += [{"kind": "kong", "tile": name(t)} for t in self._kong_options(seat)]
            if self._turn_kind in ("draw", "replacement"):
                actions += [{"kind": "swap", "tile": name(t)} for t in self._swap_options(seat)]
        actions += [{"kind": "discard", "tile": name(t)} for t in self._discard_options(seat)]
        return actions

    def _discard_options(self, seat: int) -> list[int]:
        hand = self._natural(seat)  # P§11: a wild is never discarded …
        if self._locked(seat):
            return [self._drawn]  # P§6: only the tile just drawn
        held_void = [t for t in range(27) if hand[t] and self._is_void_tile(seat, t)]
        if held_void:
            return held_void  # R§5: void-suit tiles first
        natural = [t for t in range(27) if hand[t]]
        if natural or not self._wild_rules:
            return natural
        # … except by a seat holding nothing but wilds whose hand does not win (P§11).
        return [] if self._wins_with(seat, self._hands[seat]) else [WILD]

    def _swap_options(self, seat: int) -> list[int]:
        """P§11 幺鸡换: a natural X in hand and the seat's kong of X holding a wild."""
        if not self._wild_rules:
            return []
        return [
            m["tile"]
            for m in sorted(self._melds[seat], key=lambda m: m["tile"])
            if m["type"] == "kong" and m["wilds"] and self._hands[seat][m["tile"]]
        ]

    def _swap(self, seat: int, tile: int) -> None:
        """P§11: X from the hand into the kong, one of its wilds back to the hand; the turn goes on."""
        meld = self._meld_of(seat, tile)
        hand = self._hands[seat]
        hand[tile] -= 1
        meld["wilds"] -= 1
        hand[WILD] += 1
        self._arrival[seat][WILD] = self._turn_no[seat]  # the wild taken back arrives now
        if self._drawn is not None and self._drawn != WILD and hand[self._drawn] == 0:
            self._drawn = WILD  # the tile drawn this turn is no longer held: the wild stands for it
        self._log("swap", seat=seat, tile=name(tile))

    def _lateness(self, seat: int, tile: int, kind: str) -> str | None:
        """P§5: None (not late), "pong_with_three" or "kept_fourth"."""
        if kind == "added" and self._pong_of(seat, tile)["pong_with_three"]:
            return "pong_with_three"
        if self._wild_rules:
            # P§11: late when each kind the kong takes from the hand last arrived on an earlier turn.
            taken = {k for k, n in self._kong_takes(seat, tile, kind).items() if n}
            if all(self._arrival[seat][k] < self._turn_no[seat] for k in taken):
                return "kept_fourth"
            return None
        arrived = self._fourth_arrival[seat].get(tile)
        if arrived is not None and arrived < self._turn_no[seat]:
            return "kept_fourth"
        return None

    def _kong_takes(self, seat: int, tile: int, kind: str) -> dict[int, int]:
        """P§11: the tiles a kong of ``tile`` takes from the hand, natural copies first, wilds for
        what is missing: {tile: natural, WILD: wilds}."""
        n, w = self._natural(seat)[tile], self._wilds_in(self._hands[seat])
        need = {"direct": 3, "concealed": 4, "added": 1}[kind]
        natural = min(n, need)
        assert need - natural <= w, (tile, kind, n, w)
        return {tile: natural, WILD: need - natural}

    def _late_allowed(self, lateness: str | None, kind: str) -> bool:
        mode = self.rules["late_kong"]
        if lateness is None or mode in ("full", "root_only", "add_kong_unpaid"):
            return True
        if mode == "add_kong_drawn_only":
            # N8 (T/TFMJ): an added kong only with the tile just drawn; a concealed kong any time.
            return kind == "concealed"
        if mode == "kept_fourth_forbidden":
            # R§6, seeds 001/003: only a kept fourth added onto an earlier pong is forbidden.
            return lateness == "pong_with_three" or kind == "concealed"
        return False  # "forbidden"

    def _kong_options(self, seat: int) -> list[int]:
        """Concealed (four in hand) or added (a pong plus the tile), never of the void suit (P§2);
        with wilds (P§11) a concealed kong needs a natural X and four with the wilds, an added
        one a natural X or a wild, and no seat holds two melds of one tile."""
        hand = self._natural(seat)
        wilds = self._wilds_in(self._hands[seat])
        found = []
        for tile in range(27):
            if self._is_void_tile(seat, tile) or self._is_wild(tile):
                continue
            if self._pong_of(seat, tile):
                if hand[tile] == 0 and wilds == 0:
                    continue
                kind = "added"
            elif self._meld_of(seat, tile) is None and hand[tile] >= 1 and hand[tile] + wilds >= 4:
                kind = "concealed"
            else:
                continue
            if not self._late_allowed(self._lateness(seat, tile, kind), kind):
                continue
            if self._locked(seat) and not self._kong_keeps_waits(seat, tile, kind):
                continue
            found.append(tile)
        return found

    def _kong_keeps_waits(self, seat: int, tile: int, kind: str) -> bool:
        """P§6 / R§7 (c): a locked hand may kong only if its waits stay the same."""
        before = list(self._hands[seat])
        before[self._drawn] -= 1
        after = list(self._hands[seat])
        melds_after = [dict(m) for m in self._melds[seat]]
        if kind == "concealed":
            after[tile] -= 4
            melds_after.append({"type": "kong", "tile": tile})
        else:
            after[tile] -= 1
            for m in melds_after:
                if m["type"] == "pong" and m["tile"] == tile:
                    m["type"] = "kong"
        return self._waits(seat, before, self._melds[seat]) == self._waits(seat, after, melds_after)

    # --- discards and responses (P§2 "Responses to a discard") -------------------------------------

    def _discard(self, seat: int, tile: int) -> None:
        # R§6 pass_win_lock_self_draw: a discard instead of an offered self-draw declines it, at
        # the fan of the tile as a discard win (no self-draw bonus).
        if self.rules["pass_win_lock_self_draw"] and {"kind": "win"} in self._turn_actions(seat):
            won = self._self_draw_tile(seat)
            before = list(self._hands[seat])
            before[won] -= 1
            self._lock(seat, self._lock_fan(settlement.score_win(self, seat, before, won, {})))
        self._hands[seat][tile] -= 1
        self._discards[seat].append(tile)
        # R§6 pass_win_lock_after_pong = "kept_if_ready": a pong that leaves the hand not ready
        # ends the lock.
        if (
            self._turn_kind == "pong"
            and self.rules["pass_win_lock_after_pong"] == "kept_if_ready"
            and settlement.wait_value(self, seat) is None
        ):
            self._win_lock[seat] = None
        self._log("discard", seat=seat, tile=name(tile))
        claim = {
            "on": "discard",
            "seat": seat,
            "tile": tile,
            "kong_shot": self._turn_kind == "replacement",  # R§8 杠上炮: right after the discarder's kong
            "last_four": len(self.wall) <= 4,
            "last_tile": not self.wall,  # 海底炮: a discard made with the wall empty
            "win_fans": {},
        }
        self._claim = claim
        options = {}
        for other in range(4):
            if other != seat and self._in_hand(other):
                actions = self._discard_responses(other, claim)
                if actions:
                    options[other] = actions
        if options:
            self._stage = "discard"
            self._ask(options)
        else:
            self._next_draw(after=seat)

    def _ron_fan(self, seat: int, claim: dict) -> int | None:
        """The capped fan of winning on the claim's tile, or None if the hand does not win with it."""
        counts = list(self._hands[seat])
        counts[claim["tile"]] += 1
        if not self._wins_with(seat, counts):
            return None
        if self.rules["pass_win_lock"] == "none":
            return 0  # the value is never needed
        flags = self._rob_flags(claim) if claim["on"] == "kong" else self._discard_flags(claim)
        return self._lock_fan(settlement.score_win(self, seat, self._hands[seat], claim["tile"], flags))

    def _lock_fan(self, score: dict) -> int:
        """R§6 过胡: the fan a declined win and a later one are compared by, capped or not."""
        return score["capped_fan" if self.rules["pass_win_compare"] == "capped_fan" else "fan"]

    def _lock(self, seat: int, fan: int) -> None:
        """R§6 过胡: ``seat`` declined a win worth ``fan``; the highest one declined holds."""
        if self.rules["pass_win_lock"] != "none":
            held = self._win_lock[seat]
            self._win_lock[seat] = fan if held is None else max(held, fan)

    @staticmethod
    def _discard_flags(claim: dict) -> dict:
        """How a win on the claim's discard came about: 杠上炮, 海底炮."""
        return {"kong_shot": claim["kong_shot"], "last_tile": claim["last_tile"]}

    @staticmethod
    def _rob_flags(claim: dict) -> dict:
        """A win robbing the claim's kong: 抢杠, and 杠上炮 too on an add kong declared on a kong's
        replacement under ``kong_shot_on_rob`` (MIL ⑧ 「再次加杠的牌」)."""
        return {"robbed_kong": True, "kong_shot": claim["kong_shot"]}

    def _lock_allows(self, seat: int, fan: int) -> bool:
        """P§7 过胡."""
        mode = self.rules["pass_win_lock"]
        locked_at = self._win_lock[seat]
        if mode == "none" or locked_at is None:
            return True
        if mode == "until_draw":
            return False
        return fan > locked_at

    def _ron_forced(self, claim: dict) -> bool:
        return self.rules["last_four"] in ("forced", "ron_forced") and claim["last_four"]

    def _discard_responses(self, seat: int, claim: dict) -> list[dict]:
        tile = claim["tile"]
        if self._is_wild(tile):
            return []  # P§11: no one may claim a discarded wild
        hand = self._natural(seat)
        wilds = self._wilds_in(self._hands[seat])
        claims: list[dict] = []
        fan = self._ron_fan(seat, claim)
        if fan is not None and self._lock_allows(seat, fan):
            claim["win_fans"][seat] = fan
            if self._ron_forced(claim):
                return [{"kind": "win"}]
            claims.append({"kind": "win"})
        # P§11: with wilds a pong needs a natural X and two with the wilds, a direct kong three,
        # never of a tile the seat has a meld of; a pong may not leave nothing but wilds in hand.
        if (
            not self._locked(seat)
            and not self._is_void_tile(seat, tile)
            and hand[tile] >= 1
            and self._meld_of(seat, tile) is None
        ):
            if hand[tile] + wilds >= 3 and self.wall:
                claims.append({"kind": "kong", "tile": name(tile)})
            left = sum(hand) - min(hand[tile], 2)  # natural tiles left after the pong
            if (
                hand[tile] + wilds >= 2
                and (self.wall or self.rules["pong_last_discard"])
                and (left > 0 or not self._wild_rules)
            ):
                claims.append({"kind": "pong"})
        if claims:
            claims.append({"kind": "pass"})
        return claims

    def _log_decisions(self, taker: int | None) -> None:
        """P§9: each asked seat's decision in seat order: pass, or beaten for a pong or kong that lost
        (to a win, or with wilds to an earlier claimer, P§11); ``taker`` is the claim that stands."""
        on = self._claim["on"]
        for seat in sorted(self._decided):
            kind = self._decided[seat]["kind"]
            could = [a["kind"] for a in self._options[seat] if a["kind"] != "pass"]
            if kind == "pass":
                self._log("pass", seat=seat, on=on, could=could)
            elif kind in ("pong", "kong") and seat != taker:
                self._log("beaten", seat=seat, claim=kind)
            # R§6 过胡: any answer but win declines an offered win, a pong or kong chosen instead too.
            if kind != "win" and "win" in could:
                self._lock(seat, self._claim["win_fans"][seat])

    def _resolve(self) -> None:
        if self._stage == "exchange":
            self._resolve_exchange()
        elif self._stage == "void":
            self._resolve_void()
        elif self._stage == "discard":
            self._resolve_discard()
        else:
            self._resolve_kong()

    def _resolve_discard(self) -> None:
        claim = self._claim
        discarder, tile = claim["seat"], claim["tile"]
        winners = [s for s, a in self._decided.items() if a["kind"] == "win"]
        # P§2: at most one seat holds two of the tile; with wilds (P§11) several may claim it, and
        # the first after the discarder in turn order takes it, pong or kong alike.
        claimers = sorted(
            (s for s, a in self._decided.items() if a["kind"] in ("pong", "kong")), key=lambda s: (s - discarder) % 4
        )
        claimer = claimers[0] if claimers and not winners else None
        self._log_decisions(claimer)
        if winners:
            self._discards[discarder].pop()
            self._set_aside.append(tile)
            order = sorted(winners, key=lambda s: (s - discarder) % 4)
            for position, winner in enumerate(order):
                hand_before = list(self._hands[winner])
                flags = self._discard_flags(claim)
                self._settle_win(winner, tile, discarder, "discard", hand_before, flags)
                if claim["kong_shot"]:
                    settlement.kong_transfer(self, discarder, winner, first=position == 0, winners=len(order))
            if self._three_won():
                return
            self._next_draw(after=order[-1])
            return
        if claimer is None:
            self._next_draw(after=discarder)
        elif self._decided[claimer]["kind"] == "kong":
            self._direct_kong(claimer, discarder, tile)
        else:
            self._pong(claimer, discarder, tile)

    def _take(self, seat: int, tile: int, need: int) -> int:
        """P§11: ``need`` tiles of ``tile`` from the hand, natural copies first, then wilds; the
        number of wilds taken."""
        natural = min(self._natural(seat)[tile], need)
        self._hands[seat][tile] -= natural
        if need > natural:
            self._hands[seat][WILD] -= need - natural
        return need - natural

    def _wild_fields(self, meld: dict) -> dict:
        """P§11: ``wilds`` in pong and kong events, only under the wild rules."""
        return {"wilds": meld["wilds"]} if self._wild_rules else {}

    def _pong(self, seat: int, discarder: int, tile: int) -> None:
        with_three = self._natural(seat)[tile] == 3  # P§11: natural copies only
        wilds = self._take(seat, tile, 2)
        self._discards[discarder].pop()
        meld = {
            "type": "pong",
            "tile": tile,
            "from": discarder,
            "kind": None,
            "late": False,
            "root_only": False,
            "pong_with_three": with_three,
            "wilds": wilds,
        }
        self._melds[seat].append(meld)
        self._any_claim = True
        self._log("pong", seat=seat, tile=name(tile), from_=discarder, **self._wild_fields(meld))
        self._begin_turn(seat, "pong", None, None)

    def _direct_kong(self, seat: int, discarder: int, tile: int) -> None:
        wilds = self._take(seat, tile, 3)
        self._discards[discarder].pop()
        meld = {
            "type": "kong",
            "tile": tile,
            "from": discarder,
            "kind": "direct",
            "late": False,
            "root_only": False,
            "pong_with_three": False,
            "wilds": wilds,
        }
        self._melds[seat].append(meld)
        self._log(
            "kong", seat=seat, tile=name(tile), kind="direct", from_=discarder, late=False, **self._wild_fields(meld)
        )
        self._kong_stands(seat, meld)

    def _next_draw(self, *, after: int) -> None:
        """P§3: the first seat still in the hand after ``after`` draws; an empty wall ends the hand (P§4)."""
        if not self.wall:
            self._end("wall_empty")
            return
        for k in range(1, 5):
            seat = (after + k) % 4
            if self._in_hand(seat):
                self._draw(seat, replacement=False)
                return

    # --- kongs ----------------------------------------------------------------------------------

    def _declare_kong(self, seat: int, tile: int) -> None:
        pong = self._pong_of(seat, tile)
        kind = "added" if pong else "concealed"
        late = self._lateness(seat, tile, kind) is not None
        # R§6: root_only covers the seed's two cases, both added onto a pong; a late 暗杠 is full.
        root_only = late and self.rules["late_kong"] == "root_only" and kind == "added"
        if pong:
            added_wild = self._take(seat, tile, 1)
            pong.update(type="kong", kind="added", late=late, root_only=root_only, wilds=pong["wilds"] + added_wild)
            meld = pong
        else:
            added_wild = 0
            wilds = self._take(seat, tile, 4)
            meld = {
                "type": "kong",
                "tile": tile,
                "from": None,
                "kind": "concealed",
                "late": late,
                "root_only": root_only,
                "pong_with_three": False,
                "wilds": wilds,
            }
            self._melds[seat].append(meld)
        self._log("kong", seat=seat, tile=name(tile), kind=kind, from_=None, late=late, **self._wild_fields(meld))
        claim: dict[str, Any] = {
            "on": "kong",
            "seat": seat,
            "tile": tile,
            "meld": meld,
            "last_four": len(self.wall) <= 4,
            "win_fans": {},
            "added_wild": added_wild,
            # A kong declared on a kong's replacement is the next link of a kong chain (N12).
            "chained": self._turn_kind == "replacement" and self.rules["kong_income_transfer"] == "kong_chain",
            # N9: robbing an add kong declared on a kong's replacement is 杠上炮 too.
            "kong_shot": self._turn_kind == "replacement" and kind == "added" and self.rules["kong_shot_on_rob"],
        }
        self._claim = claim
        options = {}
        # P§11: an added kong that adds a wild adds no natural tile and cannot be robbed.
        if (kind == "added" and not added_wild) or (kind == "concealed" and self.rules["rob_concealed_kong"]):
            for other in range(4):
                if other != seat and self._in_hand(other):
                    fan = self._ron_fan(other, claim)
                    if fan is not None and self._lock_allows(other, fan):
                        claim["win_fans"][other] = fan
                        forced = self._ron_forced(claim)
                        options[other] = [{"kind": "win"}] if forced else [{"kind": "win"}, {"kind": "pass"}]
        if options:
            self._stage = "kong"
            self._ask(options)
        else:
            self._kong_stands(seat, meld, chained=claim["chained"])

    def _resolve_kong(self) -> None:
        claim = self._claim
        owner, tile, meld = claim["seat"], claim["tile"], claim["meld"]
        winners = [s for s, a in self._decided.items() if a["kind"] == "win"]
        self._log_decisions(None)  # only wins and passes here
        if not winners:
            self._kong_stands(owner, meld, chained=claim["chained"])
            return
        # R§6 抢杠胡: the kong is void: no payment, no 根; the tile goes to the robbers.
        self._log("robbed", seat=owner, tile=name(tile))
        if meld["kind"] == "added":
            meld.update(type="pong", kind=None, late=False, root_only=False)  # its wilds stay
        else:
            # P§11: the robber takes one natural X; the other three, natural or wild, go back.
            self._melds[owner].remove(meld)
            self._hands[owner][tile] += 3 - meld["wilds"]
            if meld["wilds"]:
                self._hands[owner][WILD] += meld["wilds"]
        self._set_aside.append(tile)
        order = sorted(winners, key=lambda s: (s - owner) % 4)
        for position, winner in enumerate(order):
            self._settle_win(winner, tile, owner, "robbed_kong", list(self._hands[winner]), self._rob_flags(claim))
            if claim["kong_shot"]:  # N9: the first kong's income goes as on any 杠上炮
                settlement.kong_transfer(self, owner, winner, first=position == 0, winners=len(order))
        if self._three_won():
            return
        self._next_draw(after=order[-1])

    def _kong_stands(self, owner: int, meld: dict, *, chained: bool = False) -> None:
        """P§8: the kong's payments at once, then the replacement draw. ``chained``: declared on
        the replacement of the owner's kong before it (``kong_income_transfer = "kong_chain"``)."""
        self._any_claim = True
        record = {
            "owner": owner,
            "kind": meld["kind"],
            "tile": meld["tile"],
            "feeder": meld["from"] if meld["kind"] == "direct" else None,
            "payments": [],
            "transferred": False,
            "chained": chained,
        }
        self._kongs.append(record)
        self._last_kong[owner] = record
        settlement.kong_payments(self, owner, meld, record)
        self._draw(owner, replacement=True, new_turn=meld["kind"] == "direct")

    # --- wins -----------------------------------------------------------------------------------

    def _earthly(self, seat: int) -> bool:
        return seat != self.dealer and self._turn_kind == "draw" and self._draw_count[seat] == 1 and not self._any_claim

    def _self_draw_tile(self, seat: int) -> int:
        """The tile a self-drawn win names."""
        if self._wilds_in(self._hands[seat]) == 4:
            return WILD  # P§11: a four-wild win names 1s, whatever was drawn
        if self._drawn is not None:
            return self._drawn
        return max(t for t in range(27) if self._natural(seat)[t])  # 天胡: the highest natural tile

    def _self_draw_win(self, seat: int) -> None:
        hand = self._hands[seat]
        heavenly = self._turn_kind == "first"
        tile = self._self_draw_tile(seat)
        dealt = self._turn_kind == "dealt"
        flags = {
            "self_draw": True,
            "kong_flower": self._turn_kind == "replacement",
            "heavenly": heavenly,
            "earthly": self._earthly(seat),
            "last_tile": not self.wall,  # 海底捞月: the wall's last tile
        }
        feeder = None
        last = self._last_kong[seat]
        if flags["kong_flower"] and last is not None and last["kind"] == "direct":
            feeder = last["feeder"]  # 点杠花
        hand[tile] -= 1
        self._set_aside.append(tile)
        self._settle_win(seat, tile, None, "self_draw", list(hand), flags, feeder=feeder)
        if self._three_won():
            return
        if dealt:  # P§11: after a non-dealer's dealt four wilds, the dealer's first turn
            self._begin_turn(self.dealer, "first", None, None)
            return
        self._next_draw(after=seat)

    def _settle_win(
        self,
        seat: int,
        tile: int,
        from_seat: int | None,
        kind: str,
        hand_before: list[int],
        flags: dict,
        feeder: int | None = None,
    ) -> None:
        score = settlement.score_win(self, seat, hand_before, tile, flags)
        self._log(
            "win",
            seat=seat,
            tile=name(tile),
            from_=from_seat,
            kind=kind,
            hand=names(tiles_of(hand_before)),
            score=score,
        )
        settlement.win_payments(self, seat, from_seat, score, bool(flags.get("self_draw")), feeder)
        self._win_claims.append(None if from_seat is None else self._claim)
        self._won[seat] = True
        self.wins.append({"seat": seat, "tile": name(tile), "from": from_seat, "kind": kind, "score": score})

    def _three_won(self) -> bool:
        """P§4: in 血战 the hand ends at once when the third player wins."""
        if self.rules["mode"] == "xuezhan" and sum(self._won) >= 3:
            self._end("three_won")
            return True
        return False

    # --- above one hand (R§2) ------------------------------------------------------------------

    @property
    def next_dealer(self) -> int | None:
        """R§2: ``rotate`` the next seat; ``first_winner`` the first winner, the discarder when
        the first win was one of several on one tile, the same dealer when nobody won."""
        if not self.is_over:
            return None
        if self.rules["dealer_rotation"] == "rotate":
            return (self.dealer + 1) % 4
        if not self.wins:
            return self.dealer
        claims = self._win_claims
        if len(claims) > 1 and claims[0] is not None and claims[1] is claims[0]:
            return self.wins[0]["from"]
        return self.wins[0]["seat"]

    def abandon(self, seat: int) -> None:
        """逃跑 (R§2): ``seat``, which has not won, leaves; it pays ``escape_penalty`` to each seat
        that has not won (within the last four tiles the higher of that and the seat's 查大叫
        amount), and the hand ends with nothing else settled."""
        if not isinstance(seat, int) or seat not in range(4):
            raise IllegalActionError(f"seat {seat} does not exist; seats are 0-3")
        if self.is_over:
            raise IllegalActionError("the hand is over; nobody can leave it any more")
        if self._won[seat]:
            raise IllegalActionError(f"seat {seat} has won this hand; only a seat that has not won can leave")
        self._log("abandon", seat=seat)
        late = len(self.wall) <= 4
        for other in range(4):
            if other != seat and not self._won[other]:
                amount = self.rules["escape_penalty"]
                if late:
                    amount = max(amount, settlement.claim_value(self, other))
                settlement.pay(self, seat, other, amount, "escape")
        self.leaver = seat
        self._end("abandoned")

    def _end(self, reason: str) -> None:
        settlement.reveal_wins(self)
        if reason == "wall_empty":
            settlement.exhaustive_draw(self)
        self._log("end", reason=reason, scores=list(self._scores))
        self.phase = self._stage = "over"
        self._options = None
        self._decided = {}

    # --- exchange and void (R§4, R§5) -----------------------------------------------------------

    def _exchange_actions(self, seat: int) -> list[dict]:
        tiles = tiles_of(self._natural(seat))  # P§11: never a wild
        picks: set[tuple[int, ...]] = set()
        if self.rules["exchange_same_suit"]:
            for suit in range(3):
                picks.update(itertools.combinations([t for t in tiles if suit_of(t) == suit], 3))
        else:
            picks.update(itertools.combinations(tiles, 3))
        return [{"kind": "exchange", "tiles": names(p)} for p in sorted(picks)]

    def _resolve_exchange(self) -> None:
        given = [[_tile_index(t) for t in self._decided[seat]["tiles"]] for seat in range(4)]
        how = self.rules["exchange"]
        if how == "dice":
            roll = self._rng.die()
            self._log("dice", purpose="exchange", seat=self.dealer, rolls=[roll])
            direction = DIE_DIRECTION[roll]
        elif how == "random":
            direction = EXCHANGE_DIRECTIONS[self._rng.below(3)]
        else:
            direction = how
        received = [given[(seat + RECEIVE_FROM[direction]) % 4] for seat in range(4)]
        for seat in range(4):
            for t in given[seat]:
                self._hands[seat][t] -= 1
        for seat in range(4):
            for t in received[seat]:
                self._hands[seat][t] += 1
        self._log(
            "exchange", direction=direction, given=[names(g) for g in given], received=[names(r) for r in received]
        )
        self._options = None
        if self.rules["exchange_redeal_if_unchanged"] and all(
            sorted(received[s]) == sorted(given[s]) for s in range(4)
        ):
            self._log("redeal")
            self._deal()
            self._after_deal()
            return
        self._after_exchange()

    def _resolve_void(self) -> None:
        for seat in range(4):
            suit = self._decided[seat]["suit"]
            self._voids[seat] = SUITS.index(suit)
            self._log("void", seat=seat, suit=suit)
        self._start_play()

    # --- checks for tests -----------------------------------------------------------------------

    def tile_total(self) -> int:
        """Every tile accounted for: wall, hands, melds, discards, set-aside winning tiles (108)."""
        melded = sum(3 if m["type"] == "pong" else 4 for seat in range(4) for m in self._melds[seat])
        return (
            len(self.wall)
            + sum(sum(h) for h in self._hands)
            + melded
            + sum(len(d) for d in self._discards)
            + len(self._set_aside)
        )


def _normalize(action: Any) -> dict:
    """The canonical dict of an action, so it can be compared with ``legal_actions``."""
    if not isinstance(action, dict) or "kind" not in action:
        raise IllegalActionError(f"an action is a dict with a 'kind', got {action!r}")
    kind = action["kind"]
    keys = {
        "exchange": {"kind", "tiles"},
        "void": {"kind", "suit"},
        "discard": {"kind", "tile"},
        "kong": {"kind", "tile"},
        "swap": {"kind", "tile"},
        "pong": {"kind"},
        "win": {"kind"},
        "pass": {"kind"},
    }
    if kind not in keys or set(action) != keys[kind]:
        raise IllegalActionError(f"malformed action {action!r}")
    if kind == "exchange":
        tiles = action["tiles"]
        if not isinstance(tiles, (list, tuple)):
            raise IllegalActionError(f"exchange tiles must be a list, got {tiles!r}")
        return {"kind": kind, "tiles": names(_tile_index(t) for t in tiles)}
    if kind in ("discard", "kong", "swap"):
        return {"kind": kind, "tile": name(_tile_index(action["tile"]))}
    if kind == "void":
        return {"kind": kind, "suit": action["suit"]}
    return {"kind": kind}
