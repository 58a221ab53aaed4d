"""The examples run: the policy-gradient learner for one update, and the duplicate evaluation of
the policy it saves for a few deals (a policy stepping an illegal id would raise)."""

from __future__ import annotations

import re
import sys

import numpy as np
from helpers import ROOT

EXAMPLES = ROOT / "examples"
sys.path.insert(0, str(EXAMPLES))

import evaluate_policy  # noqa: E402
import policy_gradient  # noqa: E402

NUMBER = r"[+-]\d+\.\d\d"


def test_the_learner_updates_saves_and_the_evaluation_plays_duplicate_deals(tmp_path, capsys):
    saved = tmp_path / "policy.npz"
    policy_gradient.main(["--minutes", "0", "--envs", "8", "--steps", "60", "--eval-hands", "40", "--save", str(saved)])
    out = capsys.readouterr().out
    assert "1 updates of 8 x 60 steps" in out
    assert re.search(rf"over 40 hands: {NUMBER} points/hand, 95% CI \[{NUMBER}, {NUMBER}\]", out)
    policy = policy_gradient.Policy.load(str(saved))
    assert np.abs(policy.w).sum() > 0 and np.abs(policy.v).sum() > 0
    evaluate_policy.main([str(saved), "--deals", "2", "--against", "greedy"])
    out = capsys.readouterr().out
    for name in ("policy", "random"):
        assert re.search(rf"{name} - greedy, 2 deals x 4 seatings, chengdu: {NUMBER} points/game", out)


def test_a_deal_replays_the_same_points_from_its_seed():
    first = evaluate_policy.random_chooser(np.random.default_rng(3))
    again = evaluate_policy.random_chooser(np.random.default_rng(3))
    assert evaluate_policy.play("chengdu", 12, 2, first, "greedy") == evaluate_policy.play(
        "chengdu", 12, 2, again, "greedy"
    )
