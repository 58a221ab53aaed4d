"""`xueliu arena`: bots from the command line, the report's forms, and errors as one line."""

from __future__ import annotations

import json
import shlex
import sqlite3
import sys
from pathlib import Path

import pytest

from xueliu import cli

ROOT = Path(__file__).resolve().parents[2]
SIMPLE = ROOT / "examples" / "bots" / "simple_bot.py"
TEST_ARENA = ROOT / "tests" / "bots" / "test_arena.py"


def run(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_:
        cli.main(list(args))
    out, err = capsys.readouterr()
    return exit_.value.code, out, err


def test_a_process_bot_an_in_process_bot_and_built_ins(capsys, tmp_path):
    ladder, markdown = tmp_path / "ladder.sqlite", tmp_path / "report.md"
    args = [
        "arena",
        "--rules",
        "chengdu",
        "--deals",
        "2",
        "--seed",
        "9",
        "--bot",
        f"simple={sys.executable} {SIMPLE}",
        "--bot",
        f"default={TEST_ARENA}:default_bot",
        "--bot",
        "greedy",
        "--bot",
        "random",
        "--json",
        "-",
        "--markdown",
        str(markdown),
        "--ladder",
        str(ladder),
        "--plain",
    ]
    code, out, err = run(capsys, *args)
    assert code == 0, err
    report = json.loads(out)
    assert report["bots"] == ["simple", "default", "greedy", "random"] and report["games"] == 2 * 24
    assert "| simple |" in markdown.read_text("utf-8") and "Pairs" in err
    with sqlite3.connect(ladder) as db:
        assert db.execute("SELECT digest, command FROM runs").fetchall() == [(report["digest"], report["command"])]
    # The recorded command plays the same deals again.
    again = report["command"].split(" ", 1)[1]
    code, out, _ = run(capsys, *shlex.split(again), "--json", "-", "--plain")
    assert code == 0 and json.loads(out)["digest"] == report["digest"]


def test_sprt_on_the_command_line(capsys):
    code, out, _ = run(
        capsys,
        "arena",
        "--bot",
        "greedy",
        "--bot",
        "random",
        "--deals",
        "300",
        "--sprt-points",
        "0,5",
        "--json",
        "-",
        "--plain",
    )
    report = json.loads(out)
    assert code == 0 and report["sprt"]["verdict"] == "H1" and report["deals"] < 300


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bot", "greedy"], "at least two --bot"),
        (["--bot", "greedy", "--bot", "me="], "NAME=COMMAND"),
        (["--bot", "greedy", "--bot", "me=nowhere.py:Bot"], "cannot load Bot"),
        (["--bot", "greedy", "--bot", "nobot"], "unknown bot"),
        (["--bot", "greedy", "--bot", "random", "--sprt", "5"], "two numbers"),
        (["--bot", "greedy", "--bot", "random", "--sprt", "5,0"], "increasing"),
        (["--bot", "greedy", "--bot", "me=/no/such/program"], "cannot start"),
        (["--bot", "greedy", "--bot", "random", "--ladder", "/no/such/folder/l.sqlite"], "folder does not exist"),
    ],
)
def test_errors_are_one_line(capsys, args, message):
    code, out, err = run(capsys, "arena", "--deals", "2", "--plain", *args)
    assert code in (1, 2) and out == ""
    assert message in err and len(err.strip().splitlines()) == 1
