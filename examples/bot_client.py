#!/usr/bin/env python3
"""A bot of your own for Three Thirteen by post, playing through the site's API (docs/api.md).

Python's standard library only: copy this file, change the strategy, run it.

1. Make a bot account of your own: Settings -> API tokens.
2. Make a token for the bot there, with the scopes "read" and "play". It is shown only once.
3. Run:  python bot_client.py --url https://example.org --token tt_...
   (or put the token in the environment: THREE_THIRTEEN_TOKEN=tt_... python bot_client.py)
4. Invite the bot to a game by its name, as you would a person.

What it does, every --poll seconds: accepts the invitations waiting for the bot, then plays every
game where the bot is to move. Its strategy is simple: take the top discard when it looks useful
(the wild rank, a joker, the rank of a card in hand, or a neighbour in the same suit), else draw
from the stock; then go out if it can, else discard its costliest card (never a wild one).
Each move sends the game's version as last seen: a 409 means the game moved on (the bot looks
again); a 429 means too many requests (it waits as long as Retry-After says).

  --once                   play what is waiting, then exit
  --until-game-over ID     exit (status 0) once game ID is finished
  --max-seconds N          give up (status 1) after N seconds
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import urllib.error
import urllib.request

RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}


class Api:
    """JSON over HTTP with the token; waits and retries when the site says 429."""

    def __init__(self, url: str, token: str):
        self.base = url.rstrip("/") + "/api/v1"
        self.token = token

    def call(self, method: str, path: str, body: dict | None = None):
        """(status, answer): 2xx, 404 and 409 are returned; other refusals raise SystemExit."""
        data = json.dumps(body).encode() if body is not None else None
        while True:
            request = urllib.request.Request(self.base + path, data=data, method=method)
            request.add_header("Authorization", f"Bearer {self.token}")
            request.add_header("Accept", "application/json")
            if data is not None:
                request.add_header("Content-Type", "application/json")
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    text = response.read()
                    return response.status, json.loads(text) if text else None
            except urllib.error.HTTPError as error:
                answer = json.loads(error.read() or b"{}")
                if error.code == 429:
                    wait = float(error.headers.get("Retry-After") or 5)
                    print(f"too many requests: waiting {wait:g} s", flush=True)
                    time.sleep(wait)
                    continue
                if error.code in (404, 409):
                    return error.code, answer
                raise SystemExit(f"{method} {path}: {error.code} {answer.get('detail')}") from None

    def get(self, path: str):
        return self.call("GET", path)

    def post(self, path: str, body: dict | None = None):
        return self.call("POST", path, body if body is not None else {})


def rank_suit(card: str) -> tuple[int, str]:
    """'10H' -> (10, 'H'), 'QS.1' -> (12, 'S') (a second deck's copy); a joker is (0, 'J')."""
    face = card.split(".")[0]
    if face == "JK":
        return 0, "J"
    label, suit = face[:-1], face[-1]
    return RANKS.get(label) or int(label), suit


def is_wild(card: str, wild_rank: int) -> bool:
    rank, _suit = rank_suit(card)
    return rank in (0, wild_rank)


def penalty(card: str) -> int:
    rank, _suit = rank_suit(card)
    return 20 if rank == 0 else min(rank, 10)  # a joker 20, a face card 10, an ace 1


def wants(card: str, hand: list[str], wild_rank: int) -> bool:
    """Would `card` help this hand? A wild card, a rank it holds, or a neighbour in its suit."""
    if is_wild(card, wild_rank):
        return True
    rank, suit = rank_suit(card)
    for other in hand:
        other_rank, other_suit = rank_suit(other)
        if other_rank == rank or (other_suit == suit and abs(other_rank - rank) == 1):
            return True
    return False


def choose(view: dict) -> tuple[str, dict]:
    """The move to make in this view: (endpoint, body without the version)."""
    actions = view["legal_actions"]
    if view["phase"] == "draw":
        top = view["top_discard"]
        takes = any(a["type"] == "draw" and a["source"] == "discard" for a in actions)
        if top and takes and wants(top, view["hand"], view["wild_rank"]):
            return "draw", {"source": "discard"}
        return "draw", {"source": "stock"}
    going_out = [a["card"] for a in actions if a["type"] == "go_out"]
    if going_out:
        return "go-out", {"card": max(going_out, key=penalty)}
    cards = [a["card"] for a in actions if a["type"] == "discard"]
    plain = [card for card in cards if not is_wild(card, view["wild_rank"])] or cards
    return "discard", {"card": max(plain, key=penalty)}


def play_turn(api: Api, game_id: int) -> int:
    """Play the bot's turn in one game (a draw, then a discard or going out); the moves made."""
    moves, stale = 0, 0
    status, view = api.get(f"/games/{game_id}/view")
    while status == 200 and view["legal_actions"] and stale < 3:
        endpoint, body = choose(view)
        body["version"] = view["version"]  # the game as we saw it
        status, answer = api.post(f"/games/{game_id}/{endpoint}", body)
        if status == 409:  # the game moved on since we looked: look again
            stale += 1
            status, view = api.get(f"/games/{game_id}/view")
            continue
        what = body.get("card") or ("stock" if body["source"] == "stock" else view["top_discard"])
        print(f"game {game_id} round {view['round_index'] + 1}: {endpoint} {what}", flush=True)
        moves, stale, view = moves + 1, 0, answer
    return moves


def play_once(api: Api) -> int:
    """Accept the waiting invitations, then play every game where it is the bot's move."""
    _status, invitations = api.get("/invitations")
    for invitation in invitations:
        status, _game = api.post(f"/invitations/{invitation['id']}/accept")
        word = "accepted" if status == 200 else f"not accepted ({status})"
        print(f"invitation to game {invitation['game']}: {word}", flush=True)
    _status, games = api.get("/games?filter=my_turn")
    return sum(play_turn(api, row["id"]) for row in games["items"])


def is_over(api: Api, game_id: int) -> bool:
    status, game = api.get(f"/games/{game_id}")
    return status == 200 and game["status"] in ("finished", "cancelled")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="the site's address")
    parser.add_argument("--token", default=os.environ.get("THREE_THIRTEEN_TOKEN"),
                        help="the bot's API token (default: $THREE_THIRTEEN_TOKEN)")  # fmt: skip
    parser.add_argument("--poll", type=float, default=2.0, help="seconds between looks")
    parser.add_argument("--once", action="store_true", help="play what is waiting, then exit")
    parser.add_argument("--until-game-over", type=int, metavar="GAME_ID")
    parser.add_argument("--max-seconds", type=float, help="give up after this long")
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("give a token: --token tt_... or THREE_THIRTEEN_TOKEN")
    api = Api(args.url, args.token)
    _status, me = api.get("/me")
    print(f"playing as {me['username']}", flush=True)
    started = time.monotonic()
    while True:
        moved = play_once(api)
        if args.once:
            return 0
        if args.until_game_over and is_over(api, args.until_game_over):
            print(f"game {args.until_game_over} is over", flush=True)
            return 0
        if args.max_seconds and time.monotonic() - started > args.max_seconds:
            print("giving up: --max-seconds passed", flush=True)
            return 1
        if not moved:
            time.sleep(args.poll)


if __name__ == "__main__":
    sys.exit(main())
