"""The policy bot (`Bot("policy")`, docs/bots.md, "`policy`: a learned bot"): its name everywhere a bot name
goes, legal play in every preset, its weights file, and the training pipeline end to end at CI size."""

from __future__ import annotations

import struct

import numpy as np
import pytest
from helpers import PLAY_PRESETS

import xueliu
from xueliu import ArgumentError, Bot, BotError, Game, Rules, VecEnv, compare_bots, load_policy, simulate, train
from xueliu._xueliu import _policy_samples
from xueliu.players import game_seed


def test_the_name_reads_with_and_without_a_version():
    assert Bot("policy").name == "policy:2"
    assert Bot("policy:1", seed=4).name == "policy:1"  # version 1 stays loadable
    for bad in ["policy:", "policy:0", "policy:+1", "policy:one", "policies"]:
        with pytest.raises(BotError, match="policy:VERSION"):
            Bot(bad)


@pytest.mark.parametrize("preset", PLAY_PRESETS)
def test_it_plays_whole_hands_legally_and_the_same_way_for_a_seed(preset):
    first = simulate(6, preset, bots=["policy", "greedy", "policy", "random"], seed=9, logs=True)
    again = simulate(6, preset, bots=["policy", "greedy", "policy", "random"], seed=9, logs=True, threads=1)
    assert first.logs == again.logs
    game, bot = Game(preset, seed=2), Bot("policy")
    while not game.is_over:
        seat = game.to_act()[0]
        action = bot.choose(game, seat)
        assert action in game.legal_actions(seat)
        game.act(seat, action)


def test_it_is_an_opponent_and_a_rival_like_any_bot():
    env = VecEnv(2, "yaoji", seed=1, opponents="policy")
    obs, mask = env.reset()[:2]
    assert obs.shape[0] == 2 and mask.any()
    c = compare_bots("policy", "random", 3, "chengdu", seed=1)
    assert (c.a, c.b, c.games) == ("policy:2", "random", 3)
    arena = xueliu.arena(["policy", "greedy"], rules="xuezhan", deals=2, seed=1)
    assert len(arena.names) == 2


def test_a_server_table_seats_it():
    pytest.importorskip("starlette")
    from xueliu.server.table import TableConfig, TableError

    assert TableConfig.parse({"seats": ["person", "policy", "policy:1", "greedy"]}).seats[1] == "policy"
    with pytest.raises(TableError, match="policy:VERSION"):
        TableConfig.parse({"seats": ["person", "policy:99", "greedy", "greedy"]})


def test_a_damaged_or_clashing_weights_file_is_refused():
    good = train.Mlp.new([8], np.random.default_rng(0)).to_bytes(123_456)
    assert load_policy(good) == 123_456 and Bot("policy:123456").name == "policy:123456"
    with pytest.raises(ArgumentError, match="checksum"):
        load_policy(good[:-1] + bytes([good[-1] ^ 1]))
    with pytest.raises(ArgumentError, match="too short"):
        load_policy(b"XLPW")
    with pytest.raises(ArgumentError, match="checksum"):
        train.Mlp.from_bytes(good[:-1] + bytes([good[-1] ^ 1]))
    shipped = train.Mlp.new([8], np.random.default_rng(0)).to_bytes(1)
    with pytest.raises(ArgumentError, match="cannot be replaced"):
        load_policy(shipped)
    assert train.fnv1a64(b"") == 0xCBF29CE484222325 and train.fnv1a64(b"a") == 0xAF63DC4C8601EC8C
    assert struct.unpack("<4sIII", good[:16]) == (b"XLPW", 2, 123_456, 2)


def test_samples_are_labelled_legal_ids_and_do_not_depend_on_threads():
    obs, features, legal, labels = _policy_samples(4, "yaoji", teacher="greedy", players="random", seed=3, threads=1)
    again = _policy_samples(4, "yaoji", teacher="greedy", players="random", seed=3, threads=2)
    assert all(np.array_equal(a, b) for a, b in zip((obs, features, legal, labels), again))
    assert obs.shape == (len(labels), 71, 27) and legal.shape == (len(labels), 114)
    assert features.shape == (len(labels), train.FEATURES)
    assert legal[np.arange(len(labels)), labels].all() and (legal.sum(axis=1) > 1).all()

    # A sample's observation is the one Game.observe gives: after the exchange (not recorded), the
    # first sample is seat 0's 定缺 in the same deal played by greedy.
    obs, _, legal, labels = _policy_samples(1, "yaoji", teacher="greedy", seed=3)
    game, greedy = Game("yaoji", seed=game_seed(3, 0)), Bot("greedy")
    while game.phase == "exchange":
        seat = game.to_act()[0]
        game.act(seat, greedy.choose(game, seat))
    assert np.array_equal(obs[0], game.observe(0))
    assert np.array_equal(legal[0], game.action_mask(0))
    assert labels[0] == greedy.choose(game, 0).id


def test_training_at_ci_size_lowers_the_loss_and_exports_a_policy_that_plays_every_preset(tmp_path, capsys):
    out = tmp_path / "p.xlpw"
    argv = [
        "--seed",
        "5",
        "--games",
        "3",
        "--teacher",
        "greedy",
        "--hidden",
        "24,16",
        "--epochs",
        "4",
        "--presets",
        "chengdu,yaoji",
        "--rounds",
        "1",
        "--version",
        "777",
        "--out",
        str(out),
        "--rate",
        "2",
        "--threads",
        "2",
    ]
    assert train.main(argv) == 0
    printed = capsys.readouterr().out
    losses = [float(line.split("loss ")[1].split(",")[0]) for line in printed.splitlines() if "loss" in line]
    assert len(losses) == 6 and losses[3] < losses[0], printed
    assert "yaoji: policy - greedy" in printed
    assert load_policy(out.read_bytes()) == 777
    for preset in Rules.presets():
        assert simulate(2, preset, bots="policy:777", seed=1).games == 2
    first = out.read_bytes()
    out.unlink()
    assert train.main(argv) == 0 and out.read_bytes() == first, "the same seed, the same weights"


@pytest.mark.parametrize("reads", ["features", "planes"])
def test_the_rust_network_chooses_as_the_numpy_one_it_was_trained_as(reads):
    """Version 2 on reads the features, version 1 the observation planes: both paths agree with NumPy."""
    rng = np.random.default_rng(11)
    mlp = train.Mlp.new([40, 20], rng, inputs=train.FEATURES if reads == "features" else train.OBS_SIZE)
    mlp.biases[-1] += rng.standard_normal(114).astype(np.float32)
    version = load_policy(mlp.to_bytes(424_242))
    assert np.array_equal(train.Mlp.from_bytes(mlp.to_bytes(424_242)).weights[0], mlp.weights[0])
    for preset in ("chengdu_xueliu", "yaoji"):
        # The policy labels its own play: the labels are the Rust bot's choices.
        obs, features, legal, chosen = _policy_samples(3, preset, teacher=f"policy:{version}", seed=2)
        raw = features if reads == "features" else obs
        logits = np.where(legal, mlp.forward(train.inputs(raw))[0], -np.inf)
        top2 = np.sort(logits, axis=1)[:, -2:]
        clear = top2[:, 1] - top2[:, 0] > 1e-3  # float sums in another order may swap a near tie
        assert clear.mean() > 0.9 and len(chosen) > 100
        assert np.array_equal(mlp.choose(raw, legal)[clear], chosen[clear])
