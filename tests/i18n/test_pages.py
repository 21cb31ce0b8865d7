"""The site in the reader's language: the browser's language for a visitor, the footer's picker,
card names as players of the language say them, and plural forms that follow the language."""

import re
from html import escape

import polib
import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.dates import MONTHS, MONTHS_3, WEEKDAYS, WEEKDAYS_ABBR

from games.engine import parse_card
from games.models import Game
from games.presentation import card_info
from tests.i18n.visible import VisibleText

pytestmark = pytest.mark.django_db


def translated(code: str, msgid: str, context: str | None = None) -> str:
    po = polib.pofile(str(settings.BASE_DIR / "locale" / code / "LC_MESSAGES" / "django.po"))
    entry = po.find(msgid, msgctxt=context) if context else po.find(msgid)
    assert entry and entry.msgstr and not entry.fuzzy, f"{code}: {msgid!r} is not translated"
    return entry.msgstr


@pytest.mark.parametrize("code", ["cs", "id", "is", "hu", "nl"])
def test_a_visitor_gets_the_browsers_language(client, code):
    html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE=f"{code},en;q=0.5").content.decode()
    assert f'<html lang="{code}">' in html
    assert translated(code, "I have an account") in html


def test_the_picker_switches_the_language_and_keeps_it(client):
    response = client.post(reverse("set_language"), {"language": "cs", "next": reverse("home")})
    assert response.status_code == 302 and response["Location"] == reverse("home")
    html = client.get(reverse("home")).content.decode()
    assert '<html lang="cs">' in html and translated("cs", "I have an account") in html
    assert 'value="cs" lang="cs" selected' in html


def test_card_names_in_czech_and_dutch_decks():
    queen = parse_card("QH")
    with translation.override("nl"):
        info = card_info(queen)
        assert info.rank == translated("nl", "Q", context="card corner: queen")
        assert translated("nl", "hearts") in info.name and translated("nl", "queen") in info.name
    with translation.override("cs"):
        assert translated("cs", "queen") in card_info(queen).name


def test_czech_has_three_plural_forms():
    with translation.override("cs"):
        forms = {
            translation.ngettext("%(t)s point", "%(t)s points", n) % {"t": n} for n in (1, 3, 7)
        }
    assert len({form.split(" ", 1)[1] for form in forms}) == 3, forms


def test_a_players_language_follows_them_over_the_browsers_and_the_picker_stores_it(client):
    from tests.factories import UserFactory

    player = UserFactory(language="hu")
    client.force_login(player)
    html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert '<html lang="hu">' in html and translated("hu", "My games") in html
    client.post(reverse("set_language"), {"language": "is", "next": "/"})
    player.refresh_from_db()
    assert player.language == "is"
    assert '<html lang="is">' in client.get(reverse("home")).content.decode()


def test_a_new_player_keeps_the_language_they_signed_up_in(client):
    from accounts.models import User

    password = "a long enough pass 42"
    data = {"username": "jana", "email": "jana@example.com", "password1": password,
            "password2": password}  # fmt: skip
    client.post(reverse("account_signup"), data, HTTP_ACCEPT_LANGUAGE="cs")
    assert User.objects.get(username="jana").language == "cs"


def test_mail_goes_out_in_the_recipients_language():
    from django.core import mail

    from tests.notifications.helpers import seat_to_move, send_all, two_people

    game, _users = two_people()
    to_move = seat_to_move(game).user
    type(to_move).objects.filter(pk=to_move.pk).update(language="nl")
    assert send_all() == ["sent"]
    expected = translated("nl", "Your turn in game #%(n)d") % {"n": game.pk}
    assert mail.outbox[-1].subject == expected


# -- every page a player sees, in each language: no English word or format left -----------------

ENGLISH_WORDS = {
    "the", "and", "your", "you", "with", "from", "game", "games", "round", "rounds", "point",
    "points", "player", "players", "ago", "yesterday", "today", "tomorrow", "minutes", "hours",
    "days", "week", "Settings", "Next", "Previous", "Save", "Cancel", "due", "turn", "wins",
    "won", "lost", "none", "Resign", "Leaderboard", "Friends", "Notices", "History", "Replay",
    "Password", "Forgot", "Current", "Remember", "Sign", "Log", "Username",
}  # fmt: skip
# Time zones are names too ("Atlantic/Jan Mayen" in the settings' list, "Europe/Prague" after a
# time).
ZONE = re.compile(r"\b[A-Z][A-Za-z]+/[A-Za-z_/+\-]+(?: [A-Z][a-z]+)*")
ENGLISH_FORMATS = [
    re.compile(r"\b\d+(?:st|nd|rd|th)\b"),  # ordinals: 1st, 2nd
    re.compile(r"\b\d{1,2}/\d{1,2}/\d{2,4}\b"),  # 03/12/2026, month first
    re.compile(r"\b\d{1,2}(?::\d\d)? ?[ap]\.m\."),  # 2 p.m.
]
DATE_NAMES = [*MONTHS.values(), *MONTHS_3.values(), *WEEKDAYS.values(), *WEEKDAYS_ABBR.values()]


def english_date_names(code: str) -> set[str]:
    """English month and weekday names (January, Jan, Monday, Mon) that `code` does not share
    (Indonesian's April or Jun)."""
    with translation.override("en"):
        english = {str(name) for name in DATE_NAMES} | {str(n).title() for n in MONTHS_3.values()}
    with translation.override(code):
        own = {str(name) for name in DATE_NAMES} | {str(n).title() for n in MONTHS_3.values()}
    return english - own


def english_left(html: str, code: str, names: list[str]) -> list[str]:
    parser = VisibleText()
    parser.feed(html)
    text = ZONE.sub(" ", re.sub(r"https?://\S+", " ", " ".join(parser.parts)))
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    found = [m.group(0) for pattern in ENGLISH_FORMATS for m in pattern.finditer(text)]
    words = set(re.findall(r"[^\W\d_]+", text))
    found += sorted(words & (ENGLISH_WORDS | english_date_names(code)))
    return found


@pytest.fixture
def a_players_world(db):
    """Zdeněk's games: one under way with Tünde and a bot (a round played, a move after it),
    one finished after a round with a final ranking, rated; a vacation ahead."""
    import datetime

    from accounts.models import Vacation
    from games import ratings
    from games.competitions import quick, tournaments
    from tests.factories import UserFactory, finish_game, play_on, started_game

    zdenek = UserFactory(username="zdenek", display_name="Zdeněk", time_zone="Europe/Prague")
    tunde = UserFactory(username="tunde", display_name="Tünde")
    under_way = started_game([zdenek, tunde], bots="easy", seat_count=3, time_per_move_days=3)
    play_on(under_way, until=lambda game: game.round_index >= 1)
    finished = started_game([zdenek, tunde])
    play_on(finished, until=lambda game: game.round_index >= 1)
    finish_game(finished)
    from games import reviews

    for game in (under_way, finished):
        reviews.game_review(game_id=game.pk)
    ratings.ratings_rebuild()
    quick.seek_create(player=zdenek, seats=None, preset="up_and_down", time_per_move_days=3)
    cup = tournaments.tournament_create(
        host=zdenek,
        name="Zdeňkův pohár",
        preset="classic",
        seats_per_table=2,
        rounds=2,
        time_per_move_days=3,
        starts_at=timezone.now() + datetime.timedelta(days=1),
    )
    tournaments.tournament_join(tournament_id=cup.pk, user=tunde)
    tournaments.tournament_start(tournament_id=cup.pk, user=zdenek)
    ended = tournaments.tournament_create(
        host=tunde,
        name="Tündes kupa",
        preset="classic",
        seats_per_table=2,
        rounds=1,
        time_per_move_days=3,
        starts_at=timezone.now() + datetime.timedelta(days=1),
    )
    tournaments.tournament_join(tournament_id=ended.pk, user=zdenek)
    tournaments.tournament_start(tournament_id=ended.pk, user=tunde)
    for game in Game.objects.filter(tournament_table__round__tournament=ended):
        finish_game(game)
        tournaments.tournament_game_finished(game_id=game.pk)
    opened = tournaments.tournament_create(
        host=tunde,
        name="Tündes kupa 2",
        preset="classic",
        seats_per_table=3,
        rounds=2,
        time_per_move_days=3,
        starts_at=timezone.now() + datetime.timedelta(days=1),
    )
    start = timezone.now().date() + datetime.timedelta(days=20)
    Vacation.objects.create(
        user=zdenek,
        starts_at=timezone.make_aware(datetime.datetime.combine(start, datetime.time())),
        ends_at=timezone.make_aware(
            datetime.datetime.combine(start + datetime.timedelta(days=3), datetime.time())
        ),
    )
    from games.competitions import leagues
    from games.models import LeagueEntry
    from games.notifications.optin import optin_token

    league = leagues.league_create(user=zdenek, name="Liga", preset="classic")
    leagues.league_join(league_id=league.pk, user=tunde)
    league.seasons.update(starts_at=timezone.now())
    leagues.season_start(season_id=league.seasons.get().pk)  # bots fill the division
    entry = LeagueEntry.objects.get(user=zdenek)
    # Zdeněk moderates too: Tünde's message, reported, and a report of her, in his queue.
    from django.contrib.auth.models import Permission

    from games import chat, moderation

    type(zdenek).objects.filter(pk=zdenek.pk).update(is_staff=True)
    zdenek.user_permissions.add(Permission.objects.get(codename="moderate"))
    reported = chat.chat_post(game_id=under_way.pk, user=tunde, text="Zzz")
    chat.chat_report(message=reported, user=zdenek)
    moderation.player_report(reporter=zdenek, player=tunde, reason="stalling")
    names = [
        name
        for seat in under_way.seats.select_related("user")
        for name in (seat.user.name, seat.user.username)
    ] + ["Three Thirteen", "3·13", "Zdeňkův pohár", "Tündes kupa", "Buchholz", "Liga", "Zzz"]
    names += [e.user.name for e in entry.division.entries.select_related("user")]
    pages = [
        ("home", []), ("lobby", []), ("how_to_play", []), ("game_new", []),
        ("seek_new", []), ("game", [Game.objects.get(quick=True).pk]),
        ("game", [under_way.pk]), ("game", [finished.pk]), ("game_history", [under_way.pk]),
        ("game_history", [finished.pk]), ("game_replay", [finished.pk]),
        ("game_review", [finished.pk]), ("game_review", [under_way.pk]),
        ("player", ["zdenek"]), ("player", ["tunde"]), ("leaderboard", []), ("friends", []),
        ("notices", []), ("notification_preferences", []), ("vacation", []),
        ("account_data", []), ("account_delete", []), ("account_email", []),
        ("account_change_password", []), ("tournaments", []), ("tournament", [cup.pk]),
        ("tournament", [ended.pk]), ("tournament", [opened.pk]),
        ("leagues", []), ("league", [league.pk]),
        ("league_division", [league.pk, 1, 1]),
        ("league_optin", [optin_token(user_id=zdenek.pk, entry_id=entry.pk)]),
        ("moderation_queue", []), ("moderation_case", ["tunde"]),
    ]  # fmt: skip
    return zdenek, pages, names


@pytest.mark.slow
@pytest.mark.parametrize("code", [code for code, _name in settings.LANGUAGES if code != "en"])
def test_every_page_a_player_sees_has_no_english_left(client, a_players_world, code):
    zdenek, pages, names = a_players_world
    type(zdenek).objects.filter(pk=zdenek.pk).update(language=code)
    client.force_login(zdenek)
    left = {}
    for name, args in pages:
        response = client.get(reverse(name, args=args))
        assert response.status_code == 200, (name, response.status_code)
        if "html" not in response.get("Content-Type", ""):
            continue
        if found := english_left(response.content.decode(), code, names):
            left[f"{name}{args}"] = found
    assert not left, f"{code}: English left: {left}"


@pytest.mark.parametrize("code", ["cs", "nl", "hu"])
def test_the_ranking_dates_and_places_use_the_languages_formats(client, a_players_world, code):
    zdenek, pages, names = a_players_world
    type(zdenek).objects.filter(pk=zdenek.pk).update(language=code)
    client.force_login(zdenek)
    for name, args in pages:
        if name in ("home", "game", "game_history", "player", "vacation"):  # places and dates
            html = client.get(reverse(name, args=args)).content.decode()
            assert not english_left(html, code, names), (name, english_left(html, code, names))


@pytest.mark.parametrize("code", [code for code, _name in settings.LANGUAGES if code != "en"])
def test_the_pages_of_a_visitor_have_no_english_left(client, code):
    left = {}
    for name in ("home", "account_login", "account_signup", "account_reset_password"):
        html = client.get(reverse(name), HTTP_ACCEPT_LANGUAGE=code).content.decode()
        if found := english_left(html, code, ["Three Thirteen", "3·13"]):
            left[name] = found
    assert not left, f"{code}: English left: {left}"


@pytest.mark.parametrize("code", [code for code, _name in settings.LANGUAGES if code != "en"])
def test_every_kind_of_mail_has_no_english_left(client, code):
    """The previews (/mail/preview/), which render each kind from its templates as it is sent."""
    from games.models import Notification
    from tests.factories import UserFactory

    staff = UserFactory(username="zdenek", display_name="Zdeněk", is_staff=True, language=code)
    client.force_login(staff)
    left = {}
    for kind in Notification.Kind.values:
        for written in ("html", "text"):
            response = client.get(reverse("mail_preview", args=[kind]), {"format": written})
            body = response.content.decode()
            if written == "text":
                body = f"<pre>{escape(body)}</pre>"
            if found := english_left(body, code, ["Zdeněk", "Three Thirteen", "3·13"]):
                left[f"{kind}.{written}"] = found
    assert not left, f"{code}: English left: {left}"


def test_the_settings_saved_message_is_in_the_language_just_chosen(client):
    from accounts.models import User
    from tests.factories import UserFactory

    player = UserFactory(language="nl")
    client.force_login(player)
    profile = {"section": "profile", "display_name": player.display_name,
               "time_zone": "UTC", "language": "en"}  # fmt: skip
    page = client.post(reverse("notification_preferences"), profile, follow=True)
    assert User.objects.get(pk=player.pk).language == "en"
    html = page.content.decode()
    assert "Your settings are saved." in html
    assert translated("nl", "Your settings are saved.") not in html
