"""Stateful property test of the game's Python API: random legal and illegal actions by random
seats. A legal one is taken; an illegal one raises IllegalActionError and leaves the snapshot
exactly as it was."""

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from xueliu import Action, ArgumentError, Game, IllegalActionError

TILES = [f"{r}{s}" for s in "mps" for r in range(1, 10)]

any_action = st.one_of(
    st.builds(lambda t: Action.discard(t), st.sampled_from(TILES)),
    st.builds(lambda t: Action.kong(t), st.sampled_from(TILES)),
    st.builds(lambda t: Action.swap(t), st.sampled_from(TILES)),
    st.builds(lambda s: Action.void(s), st.sampled_from("mps")),
    st.builds(lambda ts: Action.exchange(ts), st.lists(st.sampled_from(TILES), min_size=3, max_size=3)),
    st.just(Action.pong()),
    st.just(Action.win()),
    st.just(Action.pass_()),
)


class GameMachine(RuleBasedStateMachine):
    @initialize(
        preset=st.sampled_from(["dashiyou", "sanxia", "chengdu", "chengdu_xueliu", "xuezhan", "yaoji"]),
        seed=st.integers(0, 2**64 - 1),
    )
    def start(self, preset, seed):
        self.game = Game(preset, seed=seed)

    @precondition(lambda self: not self.game.is_over)
    @rule(data=st.data())
    def legal_action(self, data):
        seat = data.draw(st.sampled_from(self.game.to_act()))
        action = data.draw(st.sampled_from(self.game.legal_actions(seat)))
        self.game.act(seat, action)

    @rule(seat=st.integers(-2, 5), action=any_action)
    def any_action(self, seat, action):
        legal = 0 <= seat < 4 and action in self.game.legal_actions(seat)
        before = self.game.to_json()
        if legal:
            self.game.act(seat, action)
        else:
            refused = IllegalActionError if 0 <= seat < 4 else ArgumentError  # no such seat: a bad argument
            try:
                self.game.act(seat, action)
            except refused:
                pass
            else:
                raise AssertionError(f"{action} by seat {seat} was accepted but is not legal")
            assert self.game.to_json() == before

    @rule()
    def round_trip(self):
        assert Game.from_json(self.game.to_json()).to_json() == self.game.to_json()

    @invariant()
    def consistent(self):
        if hasattr(self, "game"):
            assert sum(self.game.scores) == 0
            assert bool(self.game.to_act()) != self.game.is_over


GameMachine.TestCase.settings = settings(max_examples=60, stateful_step_count=80, deadline=None)
test_game_machine = GameMachine.TestCase


json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 2**64),
    st.floats(allow_nan=False),
    st.sampled_from(TILES + ["x", "turn", "respond", "discard 5m", "pass", "win", "kong 5m", "p"]),
    st.just([]),
    st.just({}),
)


def mutate(value, path):
    """Replaces the value at `path` (a list of choices drawn per level) with `path[-1]`."""
    *steps, leaf = path
    node = value
    for step in steps[:-1] if steps else []:
        if isinstance(node, dict) and node:
            node = node[sorted(node)[step % len(node)]]
        elif isinstance(node, list) and node:
            node = node[step % len(node)]
    if steps:
        if isinstance(node, dict) and node:
            node[sorted(node)[steps[-1] % len(node)]] = leaf
        elif isinstance(node, list) and node:
            node[steps[-1] % len(node)] = leaf
    return value


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 500),
    moves=st.integers(0, 120),
    path=st.tuples(st.lists(st.integers(0, 200), min_size=1, max_size=5), json_leaf),
)
def test_edited_snapshots_are_refused_or_play_on_without_panicking(seed, moves, path):
    edit_and_play("chengdu_xueliu", seed, moves, path)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 500),
    moves=st.integers(0, 120),
    path=st.tuples(st.lists(st.integers(0, 200), min_size=1, max_size=5), json_leaf),
)
def test_edited_yaoji_snapshots_are_refused_or_play_on_without_panicking(seed, moves, path):
    edit_and_play("yaoji", seed, moves, path)


def edit_and_play(preset, seed, moves, path):
    import json
    import random

    from xueliu import SnapshotError

    game = Game(preset, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        s = game.to_act()[0]
        game.act(s, rng.choice(game.legal_actions(s)))
    data = mutate(json.loads(game.to_json()), list(path[0]) + [path[1]])
    try:
        restored = Game.from_json(json.dumps(data), trusted=True)  # checks, not the replay
    except SnapshotError:
        return
    for _ in range(100):
        if restored.is_over:
            break
        s = restored.to_act()[0]
        restored.act(s, rng.choice(restored.legal_actions(s)))
    assert sum(restored.scores) == 0
