"""The API reference (docs/api.py) shows each class's constructor and the server's create_app."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

pytest.importorskip("pdoc")
pytest.importorskip("starlette")

import xueliu  # noqa: E402

API = Path(__file__).resolve().parents[2] / "docs" / "api.py"


def test_the_reference_shows_constructors_and_the_server(tmp_path):
    spec = importlib.util.spec_from_file_location("xueliu_api_docs", API)
    assert spec is not None and spec.loader is not None
    api = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(api)
    api.main(str(tmp_path))
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", (tmp_path / "xueliu.html").read_text(encoding="utf-8")))
    for shown in (
        "class Game: Game(rules: RulesLike = None, *, seed: Optional[int] = None, dealer: Optional[int] = None) One",
        "class VecEnv: VecEnv(n: int, rules: RulesLike = None, seed: Optional[int] = None,",
        "class Match: Match(rules: RulesLike = None, *, seed: Optional[int] = None, hands: int = 8, "
        "placement: Sequence[int] = (4, 3, 2, 1)) A match",
        "class Bot: Bot(name: str, *, seed: int = 0) A bot",
        "class Rules: No constructor: Rules.preset(name, **options) or Rules.from_dict(d) makes one. A room",
    ):
        assert shown in text, shown
    assert text.count("Game(rules: RulesLike") == 1
    server = (tmp_path / "xueliu" / "server.html").read_text(encoding="utf-8")
    assert 'id="create_app"' in server and xueliu.__version__ in server
