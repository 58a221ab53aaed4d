"""The guides in docs/guides/ run as written, and every `expression  # value` comment holds."""

from __future__ import annotations

import pytest
from doc_examples import blocks, run_examples
from helpers import ROOT

GUIDES = sorted((ROOT / "docs" / "guides").glob("*.md"))


def test_there_are_three_guides():
    assert [g.stem for g in GUIDES] == ["embed-in-a-server", "play-a-hand", "train-and-evaluate"]


@pytest.mark.parametrize("guide", GUIDES, ids=lambda p: p.stem)
def test_a_guide_runs_and_its_comments_hold(guide):
    assert len(blocks(guide)) >= 3
    assert run_examples(guide) >= 4
