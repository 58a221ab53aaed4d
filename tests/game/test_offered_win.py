"""``Game.offered_win``: the score of the win a seat may declare now, as the engine then records
it, and ``Game.offered_payments``, what that win pays the seat. Checked against a copy of the
game in which the seat wins and every other asked seat takes its default (or passes), at every
position of random games in every preset (self-draws, discards, robbed kongs, 杠上花/杠上炮
with 呼叫转移, 海底, wilds)."""

from __future__ import annotations

import random

import pytest

import xueliu


def recorded(game: xueliu.Game, seat: int) -> dict:
    """The score a copy of ``game`` records when ``seat`` wins now."""
    trial = game.clone()
    for other in trial.to_act():
        trial.act(other, "win" if other == seat else trial.default_action(other))
    return next(w.score for w in reversed(trial.wins) if w.seat == seat).to_dict()


@pytest.mark.parametrize("preset", xueliu.Rules.presets())
def test_the_offered_win_is_the_win_recorded(preset):
    offered = 0
    for seed in range(10):
        game, rng, bot = xueliu.Game(preset, seed=seed), random.Random(seed), xueliu.Bot("greedy", seed=seed)
        while not game.is_over:
            for seat in range(4):
                legal = game.legal_actions(seat)
                score = game.offered_win(seat)
                assert (score is not None) == (xueliu.Action.win() in legal)
                if score is not None:
                    assert score.to_dict() == recorded(game, seat)
                    offered += 1
            seat = game.to_act()[0]
            game.act(seat, bot.choose(game, seat) if rng.random() < 0.9 else rng.choice(game.legal_actions(seat)))
    assert offered > 20


def paid(game: xueliu.Game, seat: int) -> list[tuple[int, int, str]]:
    """The payments to ``seat`` that follow its win in a copy of ``game`` where it wins now and
    every other seat asked passes, or takes its default when it may not pass. Under
    win_reveal = "hand_end" the win's own payments come first, read where they are made: after
    the reveal, the copy played on by default actions."""
    trial, before = game.clone(), len(game.events)
    trial.act(seat, "win")
    while not any(e["type"] == "win" and e["seat"] == seat for e in trial.events[before:]):
        other = trial.to_act()[0]
        trial.act(other, "pass" if xueliu.Action.pass_() in trial.legal_actions(other) else trial.default_action(other))
    events = trial.events[before:]
    at = next(i for i, e in enumerate(events) if e["type"] == "win" and e["seat"] == seat)
    out = []
    for e in events[at + 1 :]:
        if e["type"] != "payment":
            break
        if e["payee"] == seat:
            out.append((e["payer"], e["amount"], e["reason"]))
    if game.events[0]["rules"]["win_reveal"] != "hand_end":
        return out
    while not trial.is_over:
        other = trial.to_act()[0]
        trial.act(other, trial.default_action(other))
    types = [e["type"] for e in trial.events]
    after = trial.events[types.index("reveal") :]
    out = [p for p in out if p[2] not in ("win", "self_draw", "kong_flower_feeder")]
    own = [(e["payer"], e["amount"], e["reason"]) for e in after if e["type"] == "payment" and e["payee"] == seat]
    own = [p for p in own if p[2] in ("win", "self_draw", "kong_flower_feeder")]
    return own + out


@pytest.mark.parametrize("preset", xueliu.Rules.presets())
def test_the_offered_payments_are_those_the_win_brings(preset):
    offered, reasons = 0, set()
    for seed in range(6):
        game, rng, bot = xueliu.Game(preset, seed=seed), random.Random(seed), xueliu.Bot("greedy", seed=seed)
        while not game.is_over:
            for seat in range(4):
                payments = game.offered_payments(seat)
                assert (payments is not None) == (xueliu.Action.win() in game.legal_actions(seat))
                if payments is not None:
                    events = len(game.events)
                    if game.events[0]["rules"]["win_reveal"] == "hand_end":  # owed first, or after a reveal
                        assert sorted(payments) == sorted(paid(game, seat))
                    else:
                        assert payments == paid(game, seat)
                    assert len(game.events) == events  # the game itself is not changed
                    reasons.update(r for _, _, r in payments)
                    offered += 1
            seat = game.to_act()[0]
            game.act(seat, bot.choose(game, seat) if rng.random() < 0.9 else rng.choice(game.legal_actions(seat)))
    assert offered > 10 and {"win", "self_draw"} <= reasons


def test_an_absent_seat_is_refused():
    with pytest.raises(xueliu.ArgumentError, match="seat"):
        xueliu.Game("chengdu", seed=1).offered_win(4)
    with pytest.raises(xueliu.ArgumentError, match="seat"):
        xueliu.Game("chengdu", seed=1).offered_payments(4)
