"""The README's Python examples run, and every `expression  # value` comment whose value is a
Python literal holds, so the quick start cannot drift from the engine."""

from __future__ import annotations

from doc_examples import ROOT, blocks, run_examples

README = ROOT / "README.md"


def test_the_readme_has_python_examples():
    assert len(blocks(README)) >= 3


def test_readme_examples_run_and_their_comments_hold():
    """The blocks run in order in one namespace, as a reader would type them."""
    assert run_examples(README) >= 8, "the README's value comments were not found"
