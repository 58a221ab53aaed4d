"""The command line's tests read its English: `xueliu play` speaks the locale's language
(LC_ALL, LC_MESSAGES, LANG), so each test runs, and spawns, under the C locale whatever the
machine's is; the tests of other languages say theirs."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def c_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
