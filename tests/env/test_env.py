"""The learning environments (docs/encoding.md §3–4): PettingZoo's and Gymnasium's own checkers,
pluggable opponents, determinism, and VecEnv (auto-reset, rewards, illegal ids, threads)."""

import numpy as np
import pytest

import xueliu
from xueliu import ACTION_COUNT, OBS_SHAPE, BotError, IllegalActionError, VecEnv

env_mod = pytest.importorskip("xueliu.env")


@pytest.mark.filterwarnings("ignore:Observation:UserWarning")  # dict observations, as PettingZoo's classic envs
def test_aec_env_passes_the_pettingzoo_api_test():
    from pettingzoo.test import api_test

    for rules in ["chengdu", "chengdu_xueliu"]:
        api_test(env_mod.aec_env(rules=rules, seed=3), num_cycles=400)


def play_aec(env, seed):
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = {a: 0.0 for a in env.possible_agents}
    trace = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        trace.append((agent, action))
        env.step(action)
    return totals, trace


def test_aec_rewards_add_up_to_the_scores_and_replay_exactly():
    env = env_mod.aec_env(rules="chengdu", seed=0)
    totals, trace = play_aec(env, 11)
    assert [totals[a] for a in env.possible_agents] == list(env.hand.game.scores)
    assert sum(totals.values()) == 0
    assert play_aec(env_mod.aec_env(rules="chengdu"), 11) == (totals, trace)
    env.reset(seed=5)
    seat = env.possible_agents.index(env.agent_selection)
    mask = env.observe(env.agent_selection)["action_mask"]
    before = env.hand.game.to_json()
    with pytest.raises(IllegalActionError, match="legal ids"):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    assert env.hand.game.to_json() == before and seat == 0


def test_single_seat_env_passes_the_gymnasium_checker():
    from gymnasium.utils.env_checker import check_env

    check_env(env_mod.SingleSeatEnv(rules="chengdu", seed=1), skip_render_check=True)
    check_env(
        env_mod.SingleSeatEnv(rules="chengdu_xueliu", seat=2, opponents="default", seed=1), skip_render_check=True
    )


class FirstLegal:
    """A bot in the shape of xueliu.Bot: `.choose(game, seat)`."""

    def __init__(self):
        self.calls = 0

    def choose(self, game, seat):
        self.calls += 1
        return game.legal_actions(seat)[0]


def test_single_seat_env_plays_whole_hands_with_pluggable_opponents():
    bot = FirstLegal()
    env = env_mod.SingleSeatEnv(rules="chengdu", seat=0, opponents=[None, bot, "random", "default"], seed=7)
    rng = np.random.default_rng(0)
    for _ in range(3):
        obs, _ = env.reset()
        total, done = 0.0, False
        while not done:
            mask = env.action_masks()
            assert (mask.astype(np.int8) == obs["action_mask"]).all()
            assert obs["observation"].shape == OBS_SHAPE
            obs, reward, done, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            total += reward
            assert not trunc and "illegal_action" not in info
        assert total == env.hand.game.scores[0]
    assert bot.calls > 0
    with pytest.raises(BotError, match="valid bots are random, greedy.*; or a policy: random, default"):
        env_mod.SingleSeatEnv(opponents="smart")
    with pytest.raises(ValueError, match="choose"):
        env_mod.SingleSeatEnv(opponents=[None, "random"])
    strict = env_mod.SingleSeatEnv(rules="chengdu", illegal="raise", seed=2)
    obs, _ = strict.reset()
    with pytest.raises(IllegalActionError):
        strict.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    lax = env_mod.SingleSeatEnv(rules="chengdu", seed=2)
    obs, _ = lax.reset()
    assert lax.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))[4]["illegal_action"]


def test_single_seat_env_takes_rust_bots_by_name():
    def play(seed):
        env = env_mod.SingleSeatEnv(rules="chengdu", seat=1, opponents=["greedy", None, "greedy", "random"], seed=seed)
        obs, _ = env.reset()
        rng, done, total = np.random.default_rng(0), False, 0.0
        while not done:
            obs, reward, done, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            total += reward
        assert total == env.hand.game.scores[1]
        assert [type(b).__name__ for b in env._bots] == ["Bot", "NoneType", "Bot", "str"]
        return env.hand.game.to_json()

    assert play(4) == play(4)


def random_ids(mask, rng):
    """One random legal id per row of `mask`, chosen in numpy."""
    weights = rng.random(mask.shape) * mask
    return weights.argmax(axis=1).astype(np.int32)


def run_vec(n, threads, steps, seed=3, opponents=None, rules="chengdu_xueliu"):
    env = VecEnv(n, rules, seed=seed, opponents=opponents, threads=threads)
    obs, mask, seat = env.reset(seed=seed)
    rng = np.random.default_rng(0)
    totals, ends, digest = np.zeros((n, 4)), 0, []
    for _ in range(steps):
        obs, mask, rewards, terminated, seat = env.step(random_ids(mask, rng))
        assert (rewards.sum(axis=1) == 0).all() and mask.any(axis=1).all()
        totals += rewards
        ends += int(terminated.sum())
        digest.append((obs.sum(), int(seat.sum())))
    return totals, ends, digest, obs.copy()


def test_vec_env_steps_resets_and_ignores_thread_count():
    one = run_vec(130, 1, 150)
    two = run_vec(130, 2, 150)
    assert one[1] == two[1] and (one[0] == two[0]).all() and one[2] == two[2] and (one[3] == two[3]).all()
    assert one[1] >= 130, "hands ended and were replaced"


@pytest.mark.parametrize(
    "opponents", ["greedy", [None, "greedy", "greedy", "random"], ["greedy", None, "default", None]]
)
def test_vec_env_with_bot_opponents_ignores_thread_count(opponents):
    one = run_vec(80, 1, 120, opponents=opponents)
    two = run_vec(80, 2, 120, opponents=opponents)
    assert one[1] == two[1] and (one[0] == two[0]).all() and one[2] == two[2] and (one[3] == two[3]).all()
    assert one[1] >= 80, "hands ended and were replaced"
    assert one[2] != run_vec(80, 1, 120, opponents="random")[2]


def test_vec_env_takes_the_search_bot_with_a_budget():
    one = run_vec(6, 1, 30, opponents=[None, "ismcts:2", "greedy", "random"])
    two = run_vec(6, 2, 30, opponents=[None, "ismcts:2", "greedy", "random"])
    assert one[2] == two[2] and (one[3] == two[3]).all()
    with pytest.raises(xueliu.BotError, match='"greedy", "ismcts".*ismcts:N'):
        VecEnv(2, "chengdu", opponents="ismcts:0")


@pytest.mark.parametrize("rules", ["chengdu", "chengdu_xueliu", "xuezhan", "dashiyou", "yaoji"])
@pytest.mark.parametrize("opponents", [None, "greedy"])
def test_vec_env_plays_every_preset(rules, opponents):
    one = run_vec(40, 2, 250, rules=rules, opponents=opponents)
    assert one[1] >= 40, "every hand ended at least once"
    two = run_vec(40, 1, 250, rules=rules, opponents=opponents)
    assert (one[0] == two[0]).all() and one[2] == two[2]


def test_vec_env_yaoji_offers_and_takes_swaps():
    env = VecEnv(64, "yaoji", seed=5, threads=2)
    _, mask, _ = env.reset()
    rng, swaps = np.random.default_rng(2), 0
    for _ in range(400):
        swaps += int(mask[:, 87:114].any(axis=1).sum())
        ids = random_ids(mask, rng)
        swap = mask[:, 87:114].argmax(axis=1) + 87
        ids = np.where(mask[:, 87:114].any(axis=1), swap, ids).astype(np.int32)
        _, mask, rewards, _, _ = env.step(ids)
        assert (rewards.sum(axis=1) == 0).all()
    assert swaps > 0, "some hands offered a swap"


def test_vec_env_rows_are_the_games_own_views():
    env = VecEnv(4, "chengdu", seed=9)
    obs, mask, seat = env.reset()
    assert obs.shape == (4, *OBS_SHAPE) and mask.shape == (4, ACTION_COUNT) and seat.dtype == np.int32
    for i in range(4):
        game = env.game(i)
        assert (obs[i] == game.observe(int(seat[i]))).all()
        assert (mask[i] == game.action_mask(int(seat[i]))).all()


def test_vec_env_with_opponents_only_asks_the_callers_seat():
    env = VecEnv(8, "chengdu", seed=1, opponents="random")
    _, mask, seat = env.reset()
    rng = np.random.default_rng(1)
    for _ in range(300):
        assert (seat == 0).all()
        _, mask, _, _, seat = env.step(random_ids(mask, rng))


def test_vec_env_refuses_illegal_ids_and_changes_nothing():
    env = VecEnv(3, "chengdu", seed=2)
    _, mask, _ = env.reset()
    good = np.array([np.flatnonzero(m)[0] for m in mask], dtype=np.int32)
    before = [env.game(i).to_json() for i in range(3)]
    bad = good.copy()
    bad[1] = int(np.flatnonzero(~mask[1])[0])
    with pytest.raises(IllegalActionError, match="hand 1"):
        env.step(bad)
    with pytest.raises(xueliu.ArgumentError, match="one id per hand"):
        env.step(good[:2])
    assert [env.game(i).to_json() for i in range(3)] == before
    env.step(good)
    for bad_args, err in [
        ((0,), xueliu.ArgumentError),
        ((2, "chengdu", 0, "nobody"), BotError),
        ((2, "chengdu", 0, ["random"] * 4), xueliu.ArgumentError),
    ]:
        with pytest.raises(err):
            VecEnv(*bad_args)
