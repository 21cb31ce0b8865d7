"""Composing a mail: the context each kind needs (the table as its player sees it, the ranking,
the games waiting), rendered from templates/emails/ into plain text and HTML with the unsubscribe
headers."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from accounts.selectors import preferences_of
from accounts.validators import one_line
from accounts.zones import zone_of

from ..engine import Discard, Draw, GameState, GoOut, Rules
from ..models import Game, InboundMail, ModerationAction, Notification, Seat
from ..presentation import (
    card_info,
    cards_info,
    rank_plural,
    ranking,
    rules_summary,
    scoresheet,
    since_lines,
    sort_hand,
)
from ..presentation import (
    place as place_text,
)
from ..selectors.leagues import league_division_of_game
from ..selectors.lists import games_waiting_on
from ..selectors.table import moves_since
from ..selectors.tournaments import tournament_of_game
from .optin import optin_token
from .policy import TOPIC_OF_KIND, topic_label
from .reply_tokens import MARKER, TurnRef, reply_address, turn_token
from .tokens import unsubscribe_token


def absolute(path: str) -> str:
    return f"{settings.SITE_URL}{path}"


@contextmanager
def in_recipients_terms(row: Notification) -> Iterator[None]:
    """The recipient's language, and their time zone for times: a mail or push is written in
    these."""
    language = row.user.language or settings.LANGUAGE_CODE
    with timezone.override(zone_of(row.user)), translation.override(language):
        yield


def notice_context(row: Notification) -> dict:
    """What a notice of this kind tells (its subject, its links), for a mail or a push; call it
    in_recipients_terms."""
    return CONTEXT_BUILDERS[row.kind](row)


def compose(row: Notification) -> EmailMultiAlternatives:
    """The mail for `row`, in the recipient's language and its times in their time zone."""
    with in_recipients_terms(row):
        return build_message(row.kind, notice_context(row), to=row.user.email)


def render_email(kind: str, context: dict) -> tuple[str, str, str]:
    """(subject, plain text, HTML) from templates/emails/<kind>.txt and .html, in the active
    language and time zone (compose sets the recipient's; a preview shows the reader's)."""
    context = {**context, "kind": kind, "time_zone": timezone.get_current_timezone_name()}
    text = render_to_string(f"emails/{kind}.txt", context)
    html = render_to_string(f"emails/{kind}.html", context)
    return context["subject"], text, html


def build_message(kind: str, context: dict, *, to: str) -> EmailMultiAlternatives:
    subject, text, html = render_email(kind, context)
    message = EmailMultiAlternatives(
        subject=one_line(subject),  # a header: a line break in a name would make it unsendable
        body=text,
        to=[to],
        headers={
            # RFC 8058: mail clients show an unsubscribe button that POSTs here.
            **(
                {
                    "List-Unsubscribe": f"<{context['unsubscribe_url']}>",
                    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
                }
                if context["unsubscribe_url"]
                else {}
            ),
            "Auto-Submitted": "auto-generated",
            # A turn's own address: a reply with the move plays it (games/mailplay/).
            **({"Reply-To": context["reply_to"]} if context.get("reply_to") else {}),
            **context.get("thread_headers", {}),
        },
    )
    message.attach_alternative(html, "text/html")
    return message


def base_context(user: User, kind: str) -> dict:
    """The greeting and the links every mail ends with; a kind no one unsubscribes from (the
    moderators' mail) has no unsubscribe link."""
    topic = TOPIC_OF_KIND.get(kind)
    unsubscribe = (
        absolute(reverse("unsubscribe", kwargs={"token": unsubscribe_token(user, topic)}))
        if topic
        else ""
    )
    return {
        "name": user.name,
        "site_url": settings.SITE_URL,
        "unsubscribe_url": unsubscribe,
        "preferences_url": absolute(reverse("notification_preferences")),
        "topic": topic_label(topic) if topic else "",
    }


def game_url(game: Game) -> str:
    return absolute(reverse("game", kwargs={"game_id": game.pk}))


def turn_reply_address(game: Game, seat: Seat, user: User) -> str:
    """The address that plays this seat's turn by mail: '' unless it is their turn in a game in
    play and they play by mail (their settings)."""
    if game.status != Game.Status.ACTIVE or game.to_move_seat != seat.index:
        return ""
    if seat.autopilot or seat.resigned or not preferences_of(user).mail_play:
        return ""
    return reply_address(TurnRef(game.pk, seat.index, game.version))


def turn_links(game: Game, seat: Seat, view) -> list[dict]:
    """The turn's one-click links (games/mailplay/links.py), for its player's mail: the two draws,
    or once drawn a discard for each card and a going out where one is legal, in the order the
    table shows the hand, the card just drawn marked (`just_drawn`). Each opens a page whose
    button plays it."""
    links: dict[str, str] = {}
    plays: dict[str, list] = {}
    for action in view.legal_actions:
        if isinstance(action, Draw) and action.source == "stock":
            links["stock"] = _("Draw from the stock")
        elif isinstance(action, Draw):
            links["take"] = _("Take the %(card)s") % {"card": card_info(view.top_discard).label}
        elif isinstance(action, (Discard, GoOut)):
            plays.setdefault(action.card.token, []).append(action)
    drawn = view.hand[-1].face.lower() if view.phase == "discard" and view.hand else None
    for card in sort_hand(view.hand or (), seat, view.wild_rank, view.round_index):
        for action in plays.get(card.token, ()):
            label = card_info(action.card, view.wild_rank).label
            kind = "d" if isinstance(action, Discard) else "o"
            words = label if kind == "d" else _("Out with %(card)s") % {"card": label}
            links.setdefault(f"{kind}.{action.card.face.lower()}", words)
    return [
        {
            "label": label,
            "just_drawn": a.partition(".")[2] == drawn,
            "url": absolute(
                reverse(
                    "mail_turn", args=[turn_token(TurnRef(game.pk, seat.index, game.version, a))]
                )
            ),
        }
        for a, label in links.items()
    ]


def _table_summary(game: Game, seat: Seat) -> dict:
    """The table as this seat sees it (its PlayerView only), for 'your turn' and reminders, and
    the turn's reply address when it is theirs to play by mail."""
    view = GameState.from_dict(game.state).view(seat.index)
    seats = list(game.seats.select_related("user").order_by("index"))
    names = [s.user.name for s in seats]
    wild = view.wild_rank
    since = [line["text"] for line in since_lines(moves_since(game, seat)[:30], names, view)]
    return {
        "game_number": game.pk,
        "round": view.round_index + 1,
        "rounds": view.round_count,
        "wild": rank_plural(wild),
        "hand": cards_info(sort_hand(view.hand or (), seat, wild, view.round_index), wild),
        "top_discard": card_info(view.top_discard, wild) if view.top_discard else None,
        "players": [
            {
                "name": names[i],
                "cards": view.card_counts[i],
                "total": view.totals[i],
                "is_me": i == seat.index,
                "autopilot": s.autopilot,
                "dropped": s.dropped,
            }
            for i, s in enumerate(seats)
        ],
        "since": since,
        # "Your move is due by" while the move is theirs (not in the answer to a move played)
        "deadline": game.deadline if game.to_move_seat == seat.index else None,
        "play_url": game_url(game),
        "reply_to": (reply_to := turn_reply_address(game, seat, seat.user)),
        "links": turn_links(game, seat, view) if reply_to else [],
        "drawn": card_info(view.hand[-1], wild) if view.phase == "discard" and view.hand else None,
        "marker": MARKER,
    }


def _your_turn_context(row: Notification) -> dict:
    seat = row.game.seats.get(user=row.user)
    return {
        **base_context(row.user, row.kind),
        **_table_summary(row.game, seat),
        "tournament_line": tournament_line(row.game),
        "subject": _("Your turn in game #%(n)d") % {"n": row.game.pk},
    }


def _reminder_context(row: Notification) -> dict:
    seat = row.game.seats.get(user=row.user)
    left = timeuntil(row.game.deadline).replace("\xa0", " ")
    return {
        **base_context(row.user, row.kind),
        **_table_summary(row.game, seat),
        "percent": row.threshold,
        "time_left": left,
        "subject": _("Reminder: %(left)s left for your move in game #%(n)d")
        % {"left": left, "n": row.game.pk},
    }


def _invitation_context(row: Notification) -> dict:
    game = row.game
    host = game.created_by.name
    return {
        **base_context(row.user, row.kind),
        "host": host,
        "game_number": game.pk,
        "players": [s.user.name for s in game.seats.select_related("user")],
        "seat_count": game.seat_count,
        "time_per_move_days": game.time_per_move_days,
        "rules": rules_summary(Rules.from_dict(game.rules)),
        "join_url": absolute(reverse("invite", kwargs={"code": game.invite_code})),
        "subject": _("%(host)s invites you to a game of Three Thirteen") % {"host": host},
    }


def _game_over_context(row: Notification) -> dict:
    game = row.game
    seats = list(game.seats.select_related("user").order_by("index"))
    view = GameState.from_dict(game.state).view(None)
    ranked = ranking(game, seats)
    for entry, seat in zip(
        ranked, sorted(seats, key=lambda s: (s.final_rank or 99, s.index)), strict=True
    ):
        entry["dropped"] = seat.dropped
    mine = next(s for s in seats if s.user_id == row.user_id)
    winners = [r["name"] for r in ranked if r["winner"]]
    return {
        **base_context(row.user, row.kind),
        "game_number": game.pk,
        "ranking": ranked,
        "my_rank": mine.final_rank,
        "my_total": mine.final_total,
        "names": [s.user.name for s in seats],
        "scoresheet": scoresheet(view),
        "game_url": game_url(game),
        "replay_url": absolute(reverse("game_replay", kwargs={"game_id": game.pk})),
        "subject": _("Game #%(n)d is over: %(winners)s won")
        % {"n": game.pk, "winners": " & ".join(winners)},
    }


def timed_out_subject(game_number: int) -> str:
    return _("Your time ran out in game #%(n)d: a bot is playing for you") % {"n": game_number}


def dropped_subject(game_number: int, timeouts: int) -> str:
    return ngettext(
        "You were dropped from game #%(n)d after %(count)d timeout",
        "You were dropped from game #%(n)d after %(count)d timeouts",
        timeouts,
    ) % {"n": game_number, "count": timeouts}


def _timed_out_context(row: Notification) -> dict:
    """No table here, only the clock's facts: nothing of any hand."""
    game = row.game
    seat = game.seats.get(user=row.user)
    return {
        **base_context(row.user, row.kind),
        "game_number": game.pk,
        "timeouts_left": max(max(game.max_timeouts, 1) - seat.timeouts, 1),
        "play_url": game_url(game),
        "subject": timed_out_subject(game.pk),
    }


def _dropped_context(row: Notification) -> dict:
    game = row.game
    timeouts = max(game.max_timeouts, 1)
    return {
        **base_context(row.user, row.kind),
        "game_number": game.pk,
        "timeouts": timeouts,
        "game_ended": game.status != Game.Status.ACTIVE,
        "game_url": game_url(game),
        "subject": dropped_subject(game.pk, timeouts),
    }


def _digest_context(row: Notification) -> dict:
    seats = games_waiting_on(row.user).select_related("game").order_by("game__deadline", "pk")
    games = []
    for seat in seats:
        others = seat.game.seats.exclude(pk=seat.pk).select_related("user")
        games.append(
            {
                "game_number": seat.game.pk,
                "opponents": [s.user.name for s in others],
                "deadline": seat.game.deadline,
                "play_url": game_url(seat.game),
                "reply_to": turn_reply_address(seat.game, seat, row.user),
            }
        )
    count = len(games)
    return {
        **base_context(row.user, row.kind),
        "games": games,
        "subject": ngettext(
            "%(n)d game is waiting for your move", "%(n)d games are waiting for your move", count
        )
        % {"n": count},
    }


def seat_news_subject(kind: str, game_number: int, player: str) -> str:
    if kind == Notification.Kind.JOINED:
        return _("%(player)s took a seat at game #%(n)d") % {"player": player, "n": game_number}
    if kind == Notification.Kind.DECLINED:
        return _("%(player)s declined your invitation to game #%(n)d") % {
            "player": player,
            "n": game_number,
        }
    return _("Game #%(n)d has started") % {"n": game_number}


def seat_news_line(*, open_: bool, names: list[str], seat_count: int) -> str:
    """Where the game stands when the mail is written: its seats taken, or who plays it."""
    if open_ and len(names) == seat_count:  # a game its host starts (not "start when full")
        return _("Every seat is taken: the game waits for you to start it.")
    if open_:
        return ngettext(
            "%(taken)d of %(seats)d seats is taken.",
            "%(taken)d of %(seats)d seats are taken.",
            len(names),
        ) % {"taken": len(names), "seats": seat_count}
    return _("At the table: %(players)s.") % {"players": ", ".join(names)}


def _seat_news_context(row: Notification) -> dict:
    """A player took a seat or declined (to the host), or the game started (to those seated):
    names and seats only, no card."""
    game = row.game
    names = [s.user.name for s in game.seats.select_related("user").order_by("index")]
    return {
        **base_context(row.user, row.kind),
        "game_number": game.pk,
        "line": seat_news_line(
            open_=game.status == Game.Status.OPEN, names=names, seat_count=game.seat_count
        ),
        "play_url": game_url(game),
        "tournament_line": tournament_line(game),
        "league_line": league_line(game) if row.kind == Notification.Kind.STARTED else "",
        "subject": seat_news_subject(row.kind, game.pk, row.player.name if row.player else ""),
    }


def _mail_answer_context(row: Notification) -> dict:
    """What came of a mail the player sent to a turn's address: played, a card drawn (the discard
    awaited, at the new turn's address), or refused and why; with the table as it stands."""
    inbound, game = row.inbound, row.game
    seat = game.seats.select_related("user").get(user=row.user)
    outcome = inbound.outcome
    subjects = {
        InboundMail.Outcome.PLAYED: _("Game #%(n)d: your move is played"),
        InboundMail.Outcome.DREW: _("Game #%(n)d: your new card; now your discard"),
        InboundMail.Outcome.REFUSED: _("Game #%(n)d: your mail was not played"),
    }
    message_id = inbound.key.removeprefix("id:") if inbound.key.startswith("id:") else ""
    return {
        **base_context(row.user, row.kind),
        **(_table_summary(game, seat) if game.status == Game.Status.ACTIVE else {}),
        "game_number": game.pk,
        "outcome": outcome,
        "reason": inbound.reason,
        "command": inbound.command,
        "game_over": game.status != Game.Status.ACTIVE,
        "game_url": game_url(game),
        "subject": subjects[outcome] % {"n": game.pk},
        "thread_headers": {"In-Reply-To": message_id, "References": message_id}
        if message_id
        else {},
    }


def tournament_line(game: Game) -> str:
    """ "Spring cup · Round 2" for a tournament's table ('' for any other game)."""
    table = tournament_of_game(game.pk)
    if table is None:
        return ""
    return _("%(tournament)s · Round %(round)d") % {
        "tournament": table.round.tournament.name,
        "round": table.round.number,
    }


def _tournament_context(row: Notification) -> dict:
    """A tournament ended: the player's place of how many, the winner."""
    tournament = tournament_of_game(row.game_id).round.tournament
    entry = tournament.entries.get(user=row.user)
    players = tournament.entries.count()
    return {
        **base_context(row.user, row.kind),
        "tournament": tournament.name,
        "place": entry.place,
        "players": players,
        "winner": tournament.winner.name if tournament.winner else "",
        "tournament_url": absolute(reverse("tournament", kwargs={"tournament_id": tournament.pk})),
        "subject": tournament_subject(tournament.name, entry.place, players),
    }


def tournament_subject(name: str, place: int, players: int) -> str:
    return _("%(tournament)s is over: you placed %(place)d of %(players)d") % {
        "tournament": name,
        "place": place,
        "players": players,
    }


def league_line(game: Game) -> str:
    """'Tuesday · Season 2 · Division 1' for a league's game ('' for any other)."""
    division = league_division_of_game(game)
    if division is None:
        return ""
    return _("%(league)s · Season %(s)s · Division %(d)s") % {
        "league": division.season.league.name,
        "s": division.season.number,
        "d": division.level,
    }


def league_season_subject(league: str, season: int, place: int) -> str:
    return _("%(league)s, season %(season)d: you finished %(place)s") % {
        "league": league,
        "season": season,
        "place": place_text(place),
    }


def _league_season_context(row: Notification) -> dict:
    """The member's place and movement in the season that ended, and the one click into the
    next season (a page with a button: opening a link never enters anyone)."""
    entry = row.league_entry
    season = entry.season
    following = season.league.seasons.filter(number=season.number + 1).first()
    token = optin_token(user_id=entry.user_id, entry_id=entry.pk)
    return {
        **base_context(row.user, row.kind),
        "league": season.league.name,
        "season": season.number,
        "level": entry.division.level if entry.division else None,
        "place": entry.place,
        "movement": entry.get_movement_display(),
        "forfeited": entry.status == entry.Status.FORFEITED,
        "next_starts_at": following.starts_at if following else None,
        "optin_url": absolute(reverse("league_optin", kwargs={"token": token})),
        "standings_url": absolute(
            reverse(
                "league_division",
                kwargs={
                    "league_id": season.league_id,
                    "number": season.number,
                    "level": entry.division.level if entry.division else 1,
                },
            )
        ),
        "subject": league_season_subject(season.league.name, season.number, entry.place or 0),
    }


def moderation_context(user: User, *, measure: str, reason: str, until, message: str) -> dict:
    """A moderator's measure, told to its player: what, why, until when, and what to do."""
    kind = ModerationAction.Kind
    subjects = {
        kind.HIDE: _("A moderator hid one of your chat messages"),
        kind.WARN: _("A warning from the moderators"),
        kind.MUTE: _("You are muted in the chats"),
        kind.RENAME: _("Please choose another name"),
        kind.SUSPEND: _("Your account is suspended"),
        kind.CLOSE: _("Your account is closed"),
    }
    return {
        **base_context(user, Notification.Kind.MODERATION),
        "name": user.display_name or user.username,  # their own, even while others see another
        "measure": measure,
        "reason": reason,
        "until": until,
        "message": message,
        "settings_url": absolute(reverse("notification_preferences")),
        "subject": subjects[measure],
    }


def _moderation_context(row: Notification) -> dict:
    action = row.moderation
    return moderation_context(
        row.user,
        measure=action.kind,
        reason=action.reason,
        until=action.until,
        message=action.message.text if action.message else "",
    )


CONTEXT_BUILDERS = {
    Notification.Kind.YOUR_TURN: _your_turn_context,
    Notification.Kind.REMINDER: _reminder_context,
    Notification.Kind.INVITATION: _invitation_context,
    Notification.Kind.GAME_OVER: _game_over_context,
    Notification.Kind.DIGEST: _digest_context,
    Notification.Kind.TIMED_OUT: _timed_out_context,
    Notification.Kind.DROPPED: _dropped_context,
    Notification.Kind.JOINED: _seat_news_context,
    Notification.Kind.DECLINED: _seat_news_context,
    Notification.Kind.STARTED: _seat_news_context,
    Notification.Kind.MAIL_ANSWER: _mail_answer_context,
    Notification.Kind.TOURNAMENT: _tournament_context,
    Notification.Kind.LEAGUE_SEASON: _league_season_context,
    Notification.Kind.MODERATION: _moderation_context,
}
