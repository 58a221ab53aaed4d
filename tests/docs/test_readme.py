"""The README's Python examples run, and every `expression  # value` comment whose value is a
Python literal holds, so the quick start cannot drift from the engine."""

from __future__ import annotations

import yaml
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


def test_pre_commit_runs_cis_fast_gates():
    """.pre-commit-config.yaml runs the fast gates with the commands .ci/run runs, each a local
    hook with the installed tools (no hook repository to download), over the whole project."""
    ci_lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    assert [repo["repo"] for repo in config["repos"]] == ["local"]
    hooks = config["repos"][0]["hooks"]
    for hook in hooks:
        assert hook["language"] == "system" and hook["pass_filenames"] is False, hook["id"]
        assert hook["entry"] in ci_lines, hook["entry"]
    entries = [hook["entry"] for hook in hooks]
    assert [entry.split()[:2] for entry in entries] == [
        ["cargo", "fmt"],
        ["cargo", "clippy"],
        ["ruff", "check"],
        ["ruff", "format"],
        ["mypy"],
    ]
    assert ".pre-commit-config.yaml" in README.read_text(encoding="utf-8")
