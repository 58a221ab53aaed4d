"""The ladder with real processes (docs/ladder.md): a real ``xueliu serve`` on a loopback port,
accounts made by ``xueliu ladder-bot`` and over HTTP, and bots that are separate programs
(examples/bots/simple_bot.py, the broken-bot zoo) connected by ``xueliu ladder-client``, as a user
with a bot in any language would run them. Every wait is bounded."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Iterator, Optional

import pytest

import xueliu

pytest.importorskip("websockets")
from server_process import free_port  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SIMPLE = [sys.executable, str(ROOT / "examples" / "bots" / "simple_bot.py")]
ZOO = str(ROOT / "tests" / "bots" / "zoo.py")


class Ladder:
    """A ``xueliu serve`` whose ranked queues fill after ``fill`` seconds, bots having ``time_ms`` a decision."""

    def __init__(
        self, db: Path, fill: float, time_ms: int = 1000, database: Optional[str] = None, delay: float = 0.0
    ) -> None:
        self.db, self.port, self.database = db, free_port(), database
        self.url = f"http://127.0.0.1:{self.port}"
        command = [sys.executable, "-m", "xueliu", "serve", "--db", str(db), "--port", str(self.port)]
        command += ["--database", database] if database else []
        command += ["--ladder-fill", str(fill), "--ladder-time-ms", str(time_ms), "--hello-seconds", "3"]
        command += ["--ladder-spectator-delay", str(delay)]
        self.proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 30
        while True:
            try:
                self.get("/api/ladder")
                return
            except OSError:
                assert self.proc.poll() is None, self.proc.stderr.read().decode()  # type: ignore[union-attr]
                assert time.monotonic() < deadline, "the server did not start within 30 s"
                time.sleep(0.05)

    def get(self, path: str) -> dict:
        with urllib.request.urlopen(self.url + path, timeout=10) as r:
            return json.loads(r.read())

    def account(self, name: str) -> str:
        """An account made as an operator makes one: ``xueliu ladder-bot NAME --db``, beside the running server."""
        where = ["--database", self.database] if self.database else ["--db", str(self.db)]
        made = subprocess.run(
            [sys.executable, "-m", "xueliu", "ladder-bot", name, *where],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert made.returncode == 0, made.stderr
        return made.stdout.strip()

    def client(
        self, name: str, token: str, bot: list[str], *, sets: int = 1, preset: str = "chengdu"
    ) -> subprocess.Popen:
        command = [sys.executable, "-m", "xueliu", "ladder-client", self.url, "--bot", name, "--rules", preset]
        command += ["--sets", str(sets), "--", *bot]
        env = {**os.environ, "XUELIU_BOT_TOKEN": token}
        return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=30)
        self.proc.stderr.close()  # type: ignore[union-attr]


@pytest.fixture
def ladder(tmp_path: Path) -> Iterator[Ladder]:
    served = Ladder(tmp_path / "ladder.db", fill=0.3, time_ms=200)
    yield served
    served.stop()


def finished(proc: subprocess.Popen, timeout: float = 120) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=timeout)
    return proc.returncode, out, err


def test_a_bot_program_passes_validation_and_plays_ranked_sets_whose_ratings_are_stored(ladder: Ladder) -> None:
    token = ladder.account("simple")
    code, out, err = finished(ladder.client("simple", token, SIMPLE, sets=2))
    assert code == 0, err
    assert out.splitlines()[0].startswith("validation: passed")
    sets = [line for line in out.splitlines() if line.startswith("set under chengdu: simple ")]
    assert len(sets) == 2, out
    board = {row["name"]: row for row in ladder.get("/api/ladder")["ladder"]["chengdu"]}
    assert board["simple"]["sets"] == 2 and board["random"]["rating"] == 0.0
    # the account made over HTTP plays as well, now straight into the queue once validated
    request = urllib.request.Request(
        ladder.url + "/api/ladder/bots", data=json.dumps({"name": "second"}).encode(), method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as r:
        second = json.loads(r.read())["token"]
    code, out, err = finished(ladder.client("second", second, SIMPLE, sets=1))
    assert code == 0 and "validation: passed" in out, err


def test_two_bots_waiting_together_share_a_set_with_two_reference_bots(tmp_path: Path) -> None:
    ladder = Ladder(tmp_path / "ladder.db", fill=8.0)
    try:
        tokens = {name: ladder.account(name) for name in ("left", "right")}
        for name, token in tokens.items():  # validated first, one at a time
            assert finished(ladder.client(name, token, SIMPLE, sets=1))[0] == 0
        started = time.monotonic()
        clients = [ladder.client(name, token, SIMPLE, sets=1) for name, token in tokens.items()]
        outputs = [finished(c) for c in clients]
        assert all(code == 0 for code, _, _ in outputs), outputs
        lines = [out.strip().splitlines()[-1] for _, out, _ in outputs]
        assert all("left" in line and "right" in line and "random" in line and "greedy" in line for line in lines)
        assert time.monotonic() - started < 60
    finally:
        ladder.stop()


def test_ranked_games_are_tables_spectators_watch_late_and_storage_keeps(tmp_path: Path) -> None:
    from websockets.sync.client import connect

    delay = 1.0
    ladder = Ladder(tmp_path / "ladder.db", fill=0.3, time_ms=500, delay=delay)
    try:
        client = ladder.client("shown", ladder.account("shown"), SIMPLE, sets=1)
        deadline = time.monotonic() + 60
        while True:  # the set's tables appear in the lobby, the bots' names at their seats
            listed = ladder.get("/api/tables")["tables"]
            shown = [t["id"] for t in listed if "shown" in [seat["name"] for seat in t["seats"]]]
            if shown:
                break
            assert time.monotonic() < deadline and client.poll() is None, "no ladder table was listed"
            time.sleep(0.02)
        url = ladder.url.replace("http", "ws") + f"/api/tables/{shown[0]}/watch"
        with connect(url, open_timeout=10, proxy=None) as ws:
            ws.send(json.dumps({"type": "hello"}))
            asked = time.monotonic()
            messages = [json.loads(ws.recv(timeout=60))]
            late = time.monotonic() - asked
            while messages[-1]["type"] != "match_over":
                messages.append(json.loads(ws.recv(timeout=60)))
        code, out, err = finished(client)
        assert code == 0, err
        assert late >= delay * 0.9, f"the welcome came {late:.2f} s after the hello, before the delay"
        assert messages[0]["type"] == "welcome" and messages[0]["seat"] is None
        [line] = [line for line in out.splitlines() if line.startswith("set under chengdu:")]
        tables = line.split("; tables ")[1].split(", ")
        assert len(tables) == 4 and shown[0] in tables
        # each table played its game of the set: with the bots' seats, their points are the set's
        bots = [part.rsplit(" ", 1)[0] for part in line.split(": ", 1)[1].split("; ")[0].split(", ")]
        points = [float(part.rsplit(" ", 1)[1]) for part in line.split(": ", 1)[1].split("; ")[0].split(", ")]
        sums = dict.fromkeys(bots, 0.0)
        for table_id in tables:
            table = ladder.get(f"/api/tables/{table_id}")["table"]
            assert table["hands"] == 1  # (and over: its log is served)
            game = xueliu.Game.from_events(ladder.get(f"/api/tables/{table_id}/log")["log"]["games"][0])
            for seat, score in enumerate(game.scores):
                sums[table["seats"][seat]["name"]] += score / 4
            if table_id == shown[0]:  # what the spectator saw is the game's public view
                seen = [e for m in messages if m["type"] in ("welcome", "events") for e in m["events"]]
                assert seen == game.public_events()
        assert [round(sums[b], 2) for b in bots] == points
    finally:
        ladder.stop()
    # stored like any table: a server started again on the file serves the finished tables
    again = Ladder(tmp_path / "ladder.db", fill=0.3)
    try:
        assert again.get(f"/api/tables/{tables[0]}/log")["log"]["games"][0]
    finally:
        again.stop()


@pytest.mark.parametrize("mode", ["silent", "crashing", "garbage", "illegal", "flooding", "unknown", "neverexits"])
def test_a_broken_bot_fails_validation_without_stalling_the_server(ladder: Ladder, mode: str) -> None:
    token = ladder.account(mode)
    started = time.monotonic()
    code, out, err = finished(ladder.client(mode, token, [sys.executable, ZOO, mode]), timeout=90)
    assert code == 1, (out, err)
    assert "validation: passed" not in out
    if mode in ("garbage", "illegal", "unknown", "neverexits", "flooding"):
        assert out.startswith("validation: failed") and out.count("\n  request ") >= 1, out
    assert time.monotonic() - started < 60
    assert ladder.get("/api/ladder")["ladder"] == {}  # a bot that failed validation plays no ranked set


@pytest.mark.parametrize("mode", ["crashing", "garbage", "flooding"])
def test_a_bot_breaking_in_a_ranked_set_gets_defaults_and_the_others_set_completes(tmp_path: Path, mode: str) -> None:
    ladder = Ladder(tmp_path / "ladder.db", fill=6.0, time_ms=500)
    try:
        tokens = {name: ladder.account(name) for name in ("steady", "breaks")}
        for name, token in tokens.items():  # both validated by a correct program first
            assert finished(ladder.client(name, token, SIMPLE, sets=1))[0] == 0
        steady = ladder.client("steady", tokens["steady"], SIMPLE)
        broken = ladder.client("breaks", tokens["breaks"], [sys.executable, ZOO, mode])
        code, out, err = finished(steady, timeout=90)
        finished(broken, timeout=90)
        assert code == 0, err
        assert "breaks" in out.splitlines()[-1] and "steady" in out.splitlines()[-1]
        board = {row["name"]: row for row in ladder.get("/api/ladder")["ladder"]["chengdu"]}
        assert board["breaks"]["sets"] == 2 and board["steady"]["sets"] == 2
    finally:
        ladder.stop()


def test_on_postgresql_accounts_sets_and_ratings_are_in_the_database(tmp_path: Path, postgres_url: str) -> None:
    from xueliu.server.ladder_store import LadderStore

    ladder = Ladder(tmp_path / "unused.db", fill=0.3, time_ms=1000, database=postgres_url)
    try:
        token = ladder.account("pg-bot")
        code, out, err = finished(ladder.client("pg-bot", token, SIMPLE, sets=1))
        assert code == 0 and "validation: passed" in out, err
    finally:
        ladder.stop()
    store = LadderStore(postgres=postgres_url)  # another process's view, the server gone
    try:
        account = store.account("pg-bot")
        assert account is not None and account.validated and account.token != token
        assert [s.bots[0] for s in store.sets("chengdu")] == ["pg-bot"]
        assert {r["name"] for r in store.ratings("chengdu")} == {"pg-bot", "random", "greedy", "ismcts:25"}
    finally:
        store.close()
