"""A complete Sichuan mahjong bot speaking the xueliu bot protocol (docs/bot-protocol.md), in plain
Python with no xueliu import: it reads one JSON object per line on stdin and writes its answers,
one per line, on stdout.

Its play is a small heuristic: win whenever it may, never claim a pong or kong, and on its turn
discard the tile with the fewest neighbours in its hand (it keeps its hand from the events it is
sent). Run it in the arena:

    xueliu arena --bot simple="python examples/bots/simple_bot.py" --bot random --deals 100
"""

import json
import sys


def tile_key(tile):
    """ "5m" -> ("m", 5): the suit and rank of a tile."""
    return tile[1], int(tile[0])


def isolation(tile, hand):
    """How little the tile helps the hand: fewer copies and neighbours (one or two away) is worse."""
    suit, rank = tile_key(tile)
    score = 0
    for other in hand:
        other_suit, other_rank = tile_key(other)
        if other_suit == suit and abs(other_rank - rank) <= 2:
            score += 3 if other_rank == rank else 1
    return score


class Bot:
    """Keeps the seat's concealed hand from the events and answers each request."""

    def __init__(self):
        self.seat = None
        self.hand = []

    def on_event(self, event):
        kind = event["type"]
        if kind == "deal" and event["tiles"] is not None:
            self.seat, self.hand = event["seat"], list(event["tiles"])
        elif kind == "exchange" and event["given"][self.seat] is not None:
            for tile in event["given"][self.seat]:
                self.hand.remove(tile)
            self.hand += event["received"][self.seat]
        elif kind == "draw" and event["seat"] == self.seat:
            self.hand.append(event["tile"])
        elif kind == "discard" and event["seat"] == self.seat:
            self.hand.remove(event["tile"])

    def answer(self, request):
        actions = request["actions"]
        if "win" in actions:
            return "win"
        if request["kind"] in ("claim", "rob"):
            return "pass"
        discards = [a for a in actions if a.startswith("discard ")]
        if request["kind"] == "turn" and discards:
            hand = self.hand
            return min(discards, key=lambda a: (isolation(a.split()[1], hand), a))
        return actions[0]


def main():
    bot = Bot()
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            reply = {"type": "hello", "version": 1, "name": "simple"}
        elif kind == "request":
            reply = {"type": "answer", "id": message["id"], "action": bot.answer(message)}
        elif kind == "bye":
            return
        else:
            bot.on_event(message)  # events, acks, errors and totals: only events change the hand
            continue
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
