"""A Game, a Bot and a VecEnv are used by one thread at a time: a second thread gets
ConcurrentUseError and changes nothing (issue 12, item 13)."""

from __future__ import annotations

import threading

import numpy as np

from xueliu import (
    Bot,
    ConcurrentUseError,
    Game,
    VecEnv,
    XueliuError,
)


def test_two_threads_stepping_one_vec_env_get_a_concurrent_use_error():
    env = VecEnv(64, "chengdu", opponents="greedy", threads=1)
    errors: list[BaseException] = []

    def run():
        for _ in range(40):
            try:
                _, mask, _ = env.reset()
                ids = np.array([np.flatnonzero(m)[0] for m in mask], np.int32)
                env.step(ids)
            except ConcurrentUseError as e:
                errors.append(e)
            except XueliuError:
                pass  # the other thread stepped first: these ids may be stale

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all("one thread at a time" in str(e) for e in errors)


def test_a_game_or_bot_in_use_by_another_thread_is_a_concurrent_use_error():
    # Bot.choose releases the GIL while it thinks and keeps its bot and game meanwhile: a second
    # thread touching either gets ConcurrentUseError at once and changes nothing.
    import time

    game, bot = Game("chengdu", seed=5), Bot("ismcts:400", seed=1)
    seat = game.to_act()[0]
    before = game.to_json()
    seen: dict[str, str] = {}
    deadline = time.monotonic() + 20
    done = threading.Event()

    def think():
        while not done.is_set() and time.monotonic() < deadline:
            bot.choose(game, seat)
        done.set()

    thinker = threading.Thread(target=think)
    thinker.start()
    try:
        while not done.is_set() and len(seen) < 2:
            for what, call in (
                ("game", lambda: game.legal_actions(seat)),
                ("bot", lambda: bot.choose(Game("chengdu", seed=6), 0)),
            ):
                try:
                    call()  # succeeds when the thinker is between two calls
                except ConcurrentUseError as e:
                    seen[what] = str(e)
            time.sleep(0.001)
    finally:
        done.set()
        thinker.join()
    assert set(seen) == {"game", "bot"}, seen
    assert game.to_json() == before
    assert "Game is used by one thread at a time" in seen["game"]
    assert "Bot is used by one thread at a time" in seen["bot"]
    assert isinstance(ConcurrentUseError("x"), XueliuError)
