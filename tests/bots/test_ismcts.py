"""The ISMCTS bot from Python: names with a budget, legal play from any seat, reproducible from
its seed, usable in simulate and compare_bots; the same for ISMCTS searching from the policy's
choice (``ismcts+policy:N``). Their strength is measured in docs/bots.md."""

import pytest

from xueliu import Bot, BotError, Game, VecEnv, arena, compare_bots, simulate


def play(game, bots):
    while not game.is_over:
        seat = game.to_act()[0]
        action = bots[seat].choose(game, seat)
        assert action in game.legal_actions(seat)
        game.act(seat, action)
    return game


def test_names_carry_the_budget():
    assert Bot("ismcts:12").name == "ismcts:12"
    assert Bot("ismcts").name == "ismcts:100"
    assert repr(Bot("ismcts:3", seed=2)) == 'Bot("ismcts:3", seed=2)'
    for bad in ["ismcts:0", "ismcts:", "ismcts:ten", "ismcts:-3", "ismcts:1000001"]:
        with pytest.raises(BotError, match="ismcts:N"):
            Bot(bad)


def test_drives_any_seat_legally_and_the_same_way_for_a_seed():
    logs = []
    for _ in range(2):
        bots = [Bot("greedy"), Bot("ismcts:6", seed=5), Bot("random", seed=1), Bot("greedy")]
        logs.append(play(Game("xuezhan", seed=4), bots).events)
    assert logs[0] == logs[1]


def test_simulate_and_compare_take_ismcts():
    result = simulate(2, "chengdu", bots=("ismcts:4", "greedy", "greedy", "greedy"), seed=3, threads=1)
    assert result.bots[0] == "ismcts:4" and result.points.sum(axis=1).tolist() == [0, 0]
    c = compare_bots("ismcts:4", "greedy", 2, "xuezhan", seed=1)
    assert (c.a, c.b, c.games) == ("ismcts:4", "greedy", 2)
    assert c.ci_low <= c.mean <= c.ci_high


def test_the_policy_s_search_is_named_with_its_budget():
    assert Bot("ismcts+policy:12").name == "ismcts+policy:12"
    assert Bot("ismcts+policy").name == "ismcts+policy:100"
    for bad in ["ismcts+policy:0", "ismcts+policy:", "ismcts+policy:2:5", "ismcts+greedy:5"]:
        with pytest.raises(BotError, match="ismcts\\+policy:N"):
            Bot(bad)


def test_the_policy_s_search_plays_everywhere_a_bot_name_does():
    logs = []
    for _ in range(2):
        bots = [Bot("greedy"), Bot("ismcts+policy:6", seed=5), Bot("random", seed=1), Bot("ismcts:6", seed=5)]
        logs.append(play(Game("yaoji", seed=4), bots).events)
    assert logs[0] == logs[1]
    names = ("ismcts+policy:4", "greedy", "greedy", "greedy")
    one = simulate(2, "xuezhan", bots=names, seed=3, threads=1)
    assert (
        one.bots[0] == "ismcts+policy:4"
        and one.digest() == simulate(2, "xuezhan", bots=names, seed=3, threads=2).digest()
    )
    c = compare_bots("ismcts+policy:4", "ismcts:4", 2, "chengdu", seed=1)
    assert (c.a, c.b, c.games) == ("ismcts+policy:4", "ismcts:4", 2)
    env = VecEnv(1, "chengdu", seed=2, opponents=[None, "ismcts+policy:2", "greedy", "greedy"])
    env.reset()
    rated = arena(["ismcts+policy:2", "greedy"], deals=1, rules="chengdu", seed=1)
    assert rated.names == ["ismcts+policy:2", "greedy"]
