"""The README's Python examples run, and every `expression  # value` comment whose value is a
Python literal holds, so the quick start cannot drift from the engine."""

from __future__ import annotations

from doc_examples import blocks, run_examples
from helpers import ROOT

README = ROOT / "README.md"


def test_the_readme_has_python_examples():
    assert len(blocks(README)) >= 3


def test_readme_examples_run_and_their_comments_hold():
    """The blocks run in order in one namespace, as a reader would type them."""
    assert run_examples(README) >= 8, "the README's value comments were not found"


def test_ci_runs_the_readmes_commands():
    """.ci/run runs the README's test command verbatim, and builds the wheel and the API reference
    with the commands the README documents."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    readme = README.read_text(encoding="utf-8")
    for command in (
        'pip install ".[test]" && cargo test --release -p xueliu-core && pytest',
        "pip wheel --no-deps -w dist .",
        "python -W error docs/api.py build/api",
    ):
        assert command in readme and command in ci, command
    setup = readme[readme.index("## Set up") : readme.index("### A wheel")]
    assert setup.count("```sh") == 2  # two set-up commands: install and simulate, test
