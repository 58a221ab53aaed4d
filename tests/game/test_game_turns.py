"""A turn (RULES.md §6; docs/game-protocol.md §2): the dealer's first turn without a draw, draw
then discard, and the next seat drawing when nobody claims."""

from positions import position, seat, turn

from xueliu import Action, Game


def start_play(preset="chengdu", seed=4):
    game = Game(preset, seed=seed)
    while game.phase != "play":
        for s in game.to_act():
            game.act(s, game.default_action(s))
    return game


def test_the_dealers_first_turn_has_fourteen_tiles_and_no_draw():
    game = start_play()
    dealer = game.dealer
    assert game.to_act() == [dealer] and len(game.hand(dealer)) == 14
    assert not [e for e in game.events if e["type"] == "draw"]
    held = {str(t) for t in game.hand(dealer)}
    void = game.void(dealer)
    must = {t for t in held if t.endswith(void)} or held
    assert {str(a.tile) for a in game.legal_actions(dealer) if a.kind == "discard"} == must


def test_draw_then_discard_then_the_next_seat_draws():
    game = start_play(seed=6)
    dealer = game.dealer
    game.act(dealer, game.default_action(dealer))
    while game.to_act() != [(dealer + 1) % 4] or game.events[-1]["type"] != "draw":
        for s in game.to_act():
            game.act(s, Action.pass_())
    nxt = (dealer + 1) % 4
    assert game.events[-1]["seat"] == nxt and len(game.hand(nxt)) == 14
    assert game.wall_remaining == 54


def test_after_a_pong_only_discards_even_with_a_kong_and_a_complete_shape():
    # Seat 2 pongs 5m holding 5555p too: no kong and no win this turn, only a discard.
    game = position(
        "chengdu",
        seats=[
            seat("11m22m33m44m77m88m9m5m", void="s"),
            seat("1122334466778p", void="s"),
            seat("55m5555p123m789m9m", void="s"),
            seat("123456789s1234s", void="m"),
        ],
        pending=turn(0, "draw", "5m"),
    )
    game.act(0, Action.discard("5m"))
    game.act(2, Action.pong())
    assert {a.kind for a in game.legal_actions(2)} == {"discard"}
