"""The guides in docs/guides/ run as written, and every `expression  # value` comment holds."""

from __future__ import annotations

import shutil

import pytest
from doc_examples import blocks, run_examples
from helpers import ROOT

GUIDES = sorted((ROOT / "docs" / "guides").glob("*.md"))


def test_there_are_four_guides():
    assert [g.stem for g in GUIDES] == ["embed-in-a-server", "play-a-hand", "train-and-evaluate", "write-a-bot"]


@pytest.mark.parametrize("guide", GUIDES, ids=lambda p: p.stem)
def test_a_guide_runs_and_its_comments_hold(guide, tmp_path, monkeypatch):
    assert len(blocks(guide)) >= 3
    if guide.stem == "write-a-bot":  # the reader saves the first block as mybot.py, beside the examples
        monkeypatch.chdir(tmp_path)
        (tmp_path / "mybot.py").write_text(blocks(guide)[0], encoding="utf-8")
        shutil.copytree(ROOT / "examples", tmp_path / "examples")
    assert run_examples(guide) >= 4
