"""Broken bots, one per way a bot can fail, to test that hosts fail closed: ``python zoo.py MODE``.

silent      reads everything, writes nothing (not even a hello)
slow        answers every request correctly, but only after its deadline
crashing    says hello, then exits at its first request
garbage     says hello, then answers every request with a line that is not JSON
illegal     says hello, then names an action that is never legal outside 幺鸡 ("swap 5m")
flooding    says hello, then writes thousands of lines and a 1 MiB line per request, none an answer
unknown     says hello, then sends messages of a type no host knows, never an answer
neverexits  says hello, answers nothing, ignores bye, SIGTERM and the end of its input
hungry      says hello, then holds 384 MiB from its first request on, answering as echo does
echo        a correct bot: answers every request at once with its first action (for benchmarks)
record PATH echo, writing every line it receives to PATH (to check what a bot is sent)

Plain Python, no xueliu import, like any bot.
"""

import json
import signal
import sys
import time


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main(mode, record=None):
    if mode == "neverexits":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    ballast = b""
    for line in sys.stdin:
        if record is not None:
            record.write(line)
            record.flush()
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            if mode != "silent":
                send({"type": "hello", "version": 1, "name": mode})
            continue
        if kind == "bye" and mode != "neverexits":
            return
        if kind != "request":
            continue
        rid, first = message["id"], message["actions"][0]
        if mode == "slow":
            time.sleep(message["deadline_ms"] / 1000 * 1.5)
            send({"type": "answer", "id": rid, "action": first})
        elif mode == "crashing":
            sys.exit(3)
        elif mode == "garbage":
            sys.stdout.write("{this is not json\n")
            sys.stdout.flush()
        elif mode == "illegal":
            send({"type": "answer", "id": rid, "action": "swap 5m"})  # never legal without wilds
        elif mode == "flooding":
            sys.stdout.write("x" * (1 << 20) + "\n" + "[1, 2, 3]\n" * 5000)
            sys.stdout.flush()
        elif mode == "unknown":
            send({"type": "shout", "id": rid})
        elif mode == "hungry":
            ballast = ballast or bytearray(384 << 20)
            send({"type": "answer", "id": rid, "action": first})
        elif mode in ("echo", "record"):
            send({"type": "answer", "id": rid, "action": first})
    if mode == "neverexits":
        while True:
            time.sleep(60)


if __name__ == "__main__":
    main(sys.argv[1], open(sys.argv[2], "w", encoding="utf-8") if sys.argv[1] == "record" else None)
