"""Previews of each kind of mail in the browser, with made-up data (nothing saved)."""

from __future__ import annotations

import functools
from datetime import timedelta

from django.urls import reverse
from django.utils import timezone
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User

from ..engine import GameState, Rules, simulate_game
from ..models import InboundMail, ModerationAction, Notification
from ..presentation import card_info, cards_info, rank_plural, scoresheet, sort_hand
from .compose import (
    absolute,
    base_context,
    dropped_subject,
    league_season_subject,
    moderation_context,
    seat_news_line,
    seat_news_subject,
    timed_out_subject,
    tournament_subject,
)
from .reply_tokens import MARKER, TurnRef, reply_address


@functools.cache
def _sample_game() -> GameState:
    return simulate_game(Rules(), 3, "email-preview", ["easy"] * 3)


def sample_context(kind: str, user: User) -> dict:
    """Realistic made-up data for previewing a kind of email in the browser (nothing saved)."""
    names = [user.name, "Sam", "Easy Bot"]
    base = {**base_context(user, kind), "game_number": 42}
    deadline = timezone.now() + timedelta(days=1, hours=3)
    state = GameState.new(Rules(), 3, "email-preview")
    view = state.view(state.to_move)
    wild = view.wild_rank
    table = {
        "round": 1,
        "rounds": view.round_count,
        "wild": rank_plural(wild),
        "hand": cards_info(sort_hand(view.hand, None, wild), wild),
        "top_discard": card_info(view.top_discard, wild),
        "players": [
            {
                "name": name,
                "cards": 3,
                "total": 0,
                "is_me": i == 0,
                "autopilot": False,
                "dropped": False,
            }
            for i, name in enumerate(names)
        ],
        "since": [_("Sam drew from the stock"), _("Sam discarded the 9♠")],
        "deadline": deadline,
        "play_url": absolute(reverse("game", kwargs={"game_id": 42})),
        "reply_to": reply_address(TurnRef(42, 0, 3)),
        "marker": MARKER,
    }
    if kind == Notification.Kind.YOUR_TURN:
        return {**base, **table, "subject": _("Your turn in game #%(n)d") % {"n": 42}}
    if kind == Notification.Kind.REMINDER:
        left = timeuntil(deadline).replace("\xa0", " ")
        subject = _("Reminder: %(left)s left for your move in game #%(n)d")
        return {
            **base,
            **table,
            "percent": 50,
            "time_left": left,
            "subject": subject % {"left": left, "n": 42},
        }
    if kind == Notification.Kind.INVITATION:
        return {
            **base,
            "host": "Sam",
            "players": ["Sam"],
            "seat_count": 3,
            "time_per_move_days": 3,
            "rules": [_("Standard rules")],
            "join_url": absolute(reverse("invite", kwargs={"code": "preview"})),
            "subject": _("%(host)s invites you to a game of Three Thirteen") % {"host": "Sam"},
        }
    if kind == Notification.Kind.TIMED_OUT:
        return {
            **base,
            "timeouts_left": 2,
            "play_url": table["play_url"],
            "subject": timed_out_subject(42),
        }
    if kind == Notification.Kind.DROPPED:
        return {
            **base,
            "timeouts": 3,
            "game_ended": False,
            "game_url": table["play_url"],
            "subject": dropped_subject(42, 3),
        }
    if kind in (Notification.Kind.JOINED, Notification.Kind.DECLINED, Notification.Kind.STARTED):
        started = kind == Notification.Kind.STARTED
        return {
            **base,
            "line": seat_news_line(open_=not started, names=names[:2], seat_count=3),
            "play_url": table["play_url"],
            "subject": seat_news_subject(kind, 42, "Sam"),
        }
    if kind == Notification.Kind.MAIL_ANSWER:
        return {
            **base,
            **table,
            "outcome": InboundMail.Outcome.DREW,
            "drawn": table["hand"][-1],
            "command": "stock",
            "game_url": table["play_url"],
            "subject": _("Game #%(n)d: your new card; now your discard") % {"n": 42},
        }
    if kind == Notification.Kind.TOURNAMENT:
        return {
            **base,
            "tournament": _("Spring cup"),
            "place": 2,
            "players": 12,
            "winner": "Sam",
            "tournament_url": absolute(reverse("tournament", kwargs={"tournament_id": 7})),
            "subject": tournament_subject(_("Spring cup"), 2, 12),
        }
    if kind == Notification.Kind.GAME_OVER:
        final = _sample_game()
        order = sorted(range(3), key=lambda i: final.totals[i])
        ranking = [
            {
                "rank": position + 1,
                "name": names[i],
                "total": final.totals[i],
                "resigned": False,
                "dropped": False,
                "winner": position == 0,
            }
            for position, i in enumerate(order)
        ]
        return {
            **base,
            "ranking": ranking,
            "my_rank": order.index(0) + 1,
            "my_total": final.totals[0],
            "names": names,
            "scoresheet": scoresheet(final.view(None)),
            "game_url": table["play_url"],
            "replay_url": table["play_url"] + "replay/",
            "subject": _("Game #%(n)d is over: %(winners)s won")
            % {"n": 42, "winners": ranking[0]["name"]},
        }
    if kind == Notification.Kind.MODERATION:
        return moderation_context(
            user,
            measure=ModerationAction.Kind.MUTE,
            reason=_("Insults in the chat of game #%(n)d.") % {"n": 42},
            until=deadline + timedelta(days=6),
            message="",
        )
    if kind == Notification.Kind.LEAGUE_SEASON:
        standings = reverse("league_division", kwargs={"league_id": 1, "number": 3, "level": 2})
        return {
            **base,
            "league": "Aurora",
            "season": 3,
            "level": 2,
            "place": 1,
            "movement": _("Moves up"),
            "forfeited": False,
            "next_starts_at": deadline,
            "optin_url": absolute(reverse("league_optin", kwargs={"token": "preview"})),
            "standings_url": absolute(standings),
            "subject": league_season_subject("Aurora", 3, 1),
        }
    games = [
        {
            "game_number": 42,
            "opponents": names[1:],
            "deadline": deadline,
            "play_url": table["play_url"],
        },
        {
            "game_number": 43,
            "opponents": ["Sam"],
            "deadline": None,
            "play_url": absolute(reverse("game", kwargs={"game_id": 43})),
        },
    ]
    subject = ngettext(
        "%(n)d game is waiting for your move", "%(n)d games are waiting for your move", 2
    )
    return {**base, "games": games, "subject": subject % {"n": 2}}
