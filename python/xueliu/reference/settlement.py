"""Who pays whom (docs/game-protocol.md §8, RULES.md §9), for the reference ``Game``.

Every function reads the game's plain state and moves points only through ``pay``, which logs one
``payment`` event. Within one settlement, payments are made in payer seat order, then payee seat
order (P§8). The readings this makes are listed in ``game.READINGS`` (items 11, 14-18).
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Callable

from .scoring import best_waits, four_wilds_score, points_for_fan, score

if TYPE_CHECKING:
    from .game import Game


def pay(game: Game, payer: int, payee: int, amount: int, reason: str) -> None:
    """One payment event; nothing for a zero amount (P§8: payer and payee distinct, amount > 0)."""
    if amount <= 0 or payer == payee:
        return
    game._scores[payer] -= amount
    game._scores[payee] += amount
    game._log("payment", payer=payer, payee=payee, amount=amount, reason=reason)


# --- scores --------------------------------------------------------------------------------------


def _scoring_melds(game: Game, seat: int) -> tuple[list[str], list[str], list[str]]:
    """(exposed pongs and kongs, concealed kongs, the late kongs that score as roots: P§5)."""
    exposed: list[str] = []
    concealed: list[str] = []
    root_only: list[str] = []
    for text, meld in zip(game.meld_strings(seat), game._melds[seat]):
        (concealed if meld["kind"] == "concealed" else exposed).append(text)
        if meld["root_only"]:
            root_only.append(text)
    return exposed, concealed, root_only


def score_win(game: Game, seat: int, hand_before: list[int], tile: int, flags: dict) -> dict:
    """The score of ``seat`` winning on ``tile`` with ``hand_before`` (counts without the tile)."""
    exposed, concealed, root_only = _scoring_melds(game, seat)
    natural = game._natural(seat, hand_before)
    wilds = game._wilds_in(hand_before)
    if game._is_wild(tile) and wilds == 3:
        # P§11 four wilds: the score whatever the rest (a non-dealer's dealt win is a tile short)
        return four_wilds_score(game.rules)
    tiles = [t for t in range(27) for _ in range(natural[t])]
    return score(
        tiles,
        tile,
        melds=exposed,
        concealed_kongs=concealed,
        void=game._void_letter(seat),
        rules=game.rules,
        root_only_kongs=root_only,
        wilds=wilds,
        **flags,
    )


def wait_value(game: Game, seat: int) -> int | None:
    """查叫 value of ``seat``'s current hand: the best points over its waits; None if not ready (P§8).

    A non-dealer that won on its dealt four wilds keeps 12 tiles: no waits, None (game.READINGS 28).
    """
    exposed, concealed, root_only = _scoring_melds(game, seat)
    if sum(game._hands[seat]) + 3 * len(exposed + concealed) != 13:
        return None
    natural = game._natural(seat)
    tiles = [t for t in range(27) for _ in range(natural[t])]
    found = best_waits(
        tiles,
        melds=exposed,
        concealed_kongs=concealed,
        void=game._void_letter(seat),
        rules=game.rules,
        root_only_kongs=root_only,
        wilds=game._wilds_in(game._hands[seat]),
    )
    if not found:
        return None
    return max(result["points"] for _, result in found)


def claim_value(game: Game, seat: int) -> int:
    """What ``seat`` may claim from a leaver in the last four tiles (R§2): its 查叫 value, 0 when
    not ready; a seat on the move (14 tiles) at its best discard."""
    hand = game._hands[seat]
    exposed, concealed, _ = _scoring_melds(game, seat)
    if sum(hand) + 3 * len(exposed + concealed) <= 13:
        return wait_value(game, seat) or 0
    best = 0
    for tile in [t for t in range(27) if hand[t]]:
        hand[tile] -= 1
        best = max(best, wait_value(game, seat) or 0)
        hand[tile] += 1
    return best


def _kong_fan(game: Game, seat: int) -> int:
    """A payer's own kong fan under ``kong_fan = "win_and_loss"`` (R§9 杠进杠出); root-only kongs add none."""
    fan = 0
    for meld in game._melds[seat]:
        if meld["type"] == "kong" and not meld["root_only"]:
            key = "concealed_kong_fan" if meld["kind"] == "concealed" else "exposed_kong_fan"
            fan += game.rules[key]
    return fan


def _amount(game: Game, result: dict, payer: int) -> int:
    """What ``payer`` owes for a win: the score's points, or with win_and_loss (fan + own kong fan) capped."""
    rules = game.rules
    own = _kong_fan(game, payer) if rules["kong_fan"] == "win_and_loss" else 0
    if own == 0:
        return result["points"]
    fan = result["fan"] + own
    if rules["cap_fan"] is not None:
        fan = min(fan, rules["cap_fan"])
    return points_for_fan(fan, rules) + result["extra_points"]


# --- during play ---------------------------------------------------------------------------------


def _win_pay(game: Game, payer: int, payee: int, amount: int, reason: str) -> None:
    """A win's payment: at once, or owed until the hand ends under ``win_reveal = "hand_end"``."""
    if game.rules["win_reveal"] == "hand_end":
        game._owed.append((payer, payee, amount, reason))
    else:
        pay(game, payer, payee, amount, reason)


def reveal_wins(game: Game) -> None:
    """N18 (READINGS 32): as the hand ends, the ``reveal`` of every win, then what each is owed."""
    if game.rules["win_reveal"] != "hand_end" or not game.wins:
        return
    shown = [{k: v for k, v in e.items() if k != "type"} for e in game.events if e["type"] == "win"]
    game._log("reveal", wins=copy.deepcopy(shown))
    owed, game._owed = game._owed, []
    for payer, payee, amount, reason in owed:
        pay(game, payer, payee, amount, reason)


def win_payments(
    game: Game, winner: int, from_seat: int | None, result: dict, self_draw: bool, feeder: int | None
) -> None:
    """P§8: a win on a discard (or a robbed kong) is paid by the discarder; a self-draw by the payers."""
    if not self_draw:
        _win_pay(game, from_seat, winner, _amount(game, result, from_seat), "win")
        return
    if game.rules["self_draw_payers"] == "not_won":
        payers = [s for s in range(4) if s != winner and not game._won[s]]
    else:
        payers = [s for s in range(4) if s != winner and game._in_hand(s)]
    mode = game.rules["kong_flower_after_direct_kong"]
    if feeder is not None and mode == "feeder_pays_all":
        total = sum(_amount(game, result, p) for p in payers)
        _win_pay(game, feeder, winner, total, "kong_flower_feeder")
    elif feeder is not None and mode == "as_discard_win":
        _win_pay(game, feeder, winner, _amount(game, result, feeder), "win")
    else:
        for payer in payers:
            _win_pay(game, payer, winner, _amount(game, result, payer), "self_draw")


def kong_payments(game: Game, owner: int, meld: dict, record: dict) -> None:
    """R§9 刮风下雨, at once when the kong stands: direct 2 by the discarder; added 1 and concealed 2 by
    each other seat that has not won; x base, never through the fan curve; nothing for a root-only kong
    nor, under ``late_kong = "add_kong_unpaid"`` (MIL Art.10-1(2)1), for a late added kong."""
    rules = game.rules
    unpaid = meld["late"] and meld["kind"] == "added" and rules["late_kong"] == "add_kong_unpaid"
    if not rules["kong_payments"] or meld["root_only"] or unpaid:
        return
    if meld["kind"] == "direct":
        payers, unit = [meld["from"]], 2
    else:
        payers = [s for s in range(4) if s != owner and not game._won[s]]
        unit = 1 if meld["kind"] == "added" else 2
    for payer in sorted(payers):
        amount = unit * rules["base_points"]
        pay(game, payer, owner, amount, "kong")
        record["payments"].append((payer, amount))


def kong_transfer(game: Game, discarder: int, winner: int, *, first: bool, winners: int = 1) -> None:
    """P§8 呼叫转移 on 杠上炮, right after the win's own payment (READINGS 17). ``"kong_chain"``
    (T/TFMJ, ES §9): each of the ``winners`` takes ⌈chain income / winners⌉, the payers keep
    their loss; the chain is the last kong and each kong before it declared on the replacement of
    the one before (``chained``)."""
    mode = game.rules["kong_income_transfer"]
    last = game._last_kong[discarder]
    if mode == "kong_chain":
        end = game._kongs.index(last)
        start = end
        while start > 0 and game._kongs[start]["chained"]:
            start -= 1
        chain = game._kongs[start : end + 1]
        income = sum(a for r in chain for _, a in r["payments"])
        pay(game, discarder, winner, -(-income // winners), "kong_transfer")
        for record in chain:
            record["transferred"] = True
    elif mode == "last_kong":
        pay(game, discarder, winner, sum(a for _, a in last["payments"]), "kong_transfer")
        last["transferred"] = True
    elif mode == "all_kongs":
        records = [r for r in game._kongs if r["owner"] == discarder]
        pay(game, discarder, winner, sum(a for r in records for _, a in r["payments"]), "kong_transfer")
        for record in records:
            record["transferred"] = True
    elif mode == "refund_to_payers" and first:
        owed: dict[int, int] = {}
        for payer, amount in last["payments"]:
            owed[payer] = owed.get(payer, 0) + amount
        for payer in sorted(owed):
            pay(game, discarder, payer, owed[payer], "kong_transfer")
        last["transferred"] = True


# --- 流局 (R§9 "End of hand by 流局", P§8) ---------------------------------------------------------


def _is_pig(game: Game, seat: int) -> bool:
    """花猪: still holds three suits (R§9.1); under ``flower_pig_rule = "void_held"``, with
    declare_void, also any tile of its void suit. A wild is never either (P§11): only natural
    tiles count."""
    hand = game._natural(seat)
    void = game._voids[seat]
    if game.rules["flower_pig_rule"] == "void_held" and void is not None and any(hand[9 * void : 9 * void + 9]):
        return True
    suits = {t // 9 for t in range(27) if hand[t]} | {m["tile"] // 9 for m in game._melds[seat]}
    return len(suits) == 3


def _flower_pigs_pay(game: Game, pig: list[bool], ready: list[bool], worth: Callable[[int], int]) -> None:
    """1. 查花猪: each flower pig pays every seat `flower_pig_payees` names what `flower_pig_penalty` sets (R§9);
    under "as_not_ready" (N11) a pig pays no penalty, only 查叫 as not ready."""
    rules = game.rules
    if rules["flower_pig_penalty"] == "as_not_ready":
        return
    which = rules["flower_pig_payees"]
    if which == "ready":
        payees = [s for s in range(4) if not pig[s] and ready[s]]
    elif which == "ready_or_won":
        payees = [s for s in range(4) if not pig[s] and (ready[s] or game._won[s])]
    else:
        payees = [s for s in range(4) if not pig[s]]
    penalty = rules["flower_pig_penalty"]
    for pig_seat in (s for s in range(4) if pig[s]):
        for payee in payees:
            if penalty == "double_ready_value":
                amount = 2 * worth(payee)
            elif penalty == "fixed_fan":
                amount = points_for_fan(rules["flower_pig_fan"], rules)
            else:
                amount = points_for_fan(rules["cap_fan"], rules)
            pay(game, pig_seat, payee, amount, "flower_pig")


def exhaustive_draw(game: Game) -> None:
    """查花猪, 查叫, 补差价, 退税, in that order (R§9)."""
    rules = game.rules
    xueliu = rules["mode"] == "xueliu"
    won = game._won
    pig = [not won[s] and _is_pig(game, s) for s in range(4)]
    # A 血战 winner's own value is read only by double_ready_value (READINGS 18); skip the work.
    needed = [
        not pig[s] and (not won[s] or xueliu or rules["flower_pig_penalty"] == "double_ready_value") for s in range(4)
    ]
    value: list[int | None] = [wait_value(game, s) if needed[s] else None for s in range(4)]
    # ready: a 血流 winner through its locked hand; in 血战 winners are out of 查叫/补差价/退税.
    ready = [(xueliu if won[s] else value[s] is not None) for s in range(4)]

    def worth(seat: int) -> int:
        return value[seat] or 0

    _flower_pigs_pay(game, pig, ready, worth)
    # 2. 查叫: not ready and not a pig (a pig too under "as_not_ready") pays each ready player its best wait.
    as_not_ready = rules["flower_pig_penalty"] == "as_not_ready"
    for payer in (s for s in range(4) if not won[s] and (as_not_ready or not pig[s]) and not ready[s]):
        for payee in (s for s in range(4) if ready[s]):
            pay(game, payer, payee, worth(payee), "not_ready")
    # 3. 补差价
    if rules["ready_difference"]:
        for payer in (s for s in range(4) if ready[s]):
            for payee in (s for s in range(4) if ready[s]):
                if worth(payee) > worth(payer):
                    pay(game, payer, payee, worth(payee) - worth(payer), "ready_difference")
    # 4. 退税: every player not ready (pigs included) repays its kong income not passed on by 呼叫转移,
    # to every payer, one that has since won included (R§9.4, seed 004 §四.10 「退回所有」).
    if rules["tax_refund"]:
        for refunder in (s for s in range(4) if not won[s] and not ready[s]):
            owed: dict[int, int] = {}
            for record in game._kongs:
                if record["owner"] != refunder or record["transferred"]:
                    continue
                for payer, amount in record["payments"]:
                    owed[payer] = owed.get(payer, 0) + amount
            for payer in sorted(owed):
                pay(game, refunder, payer, owed[payer], "tax_refund")
