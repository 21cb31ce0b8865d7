"""Personal access tokens and a player's own bots (accounts.api_tokens, accounts.services,
the Settings → API page): shown once, kept hashed, scoped, expiring, revocable, limited."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from accounts.api_tokens import token_authenticate, token_create, token_digest
from accounts.models import ApiToken, User
from accounts.services import own_bot_create
from games.competitions import leagues, quick, tournaments
from games.departure import account_delete
from games.errors import GameError
from tests.api.helpers import Api, token_for
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_a_token_is_kept_only_as_its_hash():
    user = UserFactory()
    row, token = token_create(user=user, name="laptop", scopes={"read"}, expires_in_days=30)
    assert token.startswith("tt_") and len(token) > 40
    stored = ApiToken.objects.get(pk=row.pk)
    assert stored.digest == token_digest(token) and token not in str(stored.__dict__)
    assert token_authenticate(token).user == user
    assert token_authenticate(token[:-1] + ("A" if token[-1] != "A" else "B")) is None


def test_an_expired_or_revoked_token_opens_nothing(client):
    user = UserFactory()
    token = token_for(user, "read", days=30)
    assert Api(client, token).get("/me").status_code == 200
    ApiToken.objects.filter(digest=token_digest(token)).update(expires_at=timezone.now())
    assert Api(client, token).get("/me").status_code == 401
    other = token_for(user, "read")
    ApiToken.objects.filter(digest=token_digest(other)).update(revoked_at="2026-01-01T00:00Z")
    assert Api(client, other).get("/me").status_code == 401


def test_bad_scopes_names_and_expiries_are_refused():
    user = UserFactory()
    for scopes, name, days in (({"admin"}, "x", 30), (set(), "x", 30), ({"read"}, " ", 30),
                               ({"read"}, "x", 7)):  # fmt: skip
        with pytest.raises(ValidationError):
            token_create(user=user, name=name, scopes=scopes, expires_in_days=days)
    assert not ApiToken.objects.exists()


def test_the_api_rate_limit_answers_429_with_retry_after(client, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "api": (3, 60)}
    api = Api(client, token_for(UserFactory(), "read"))
    answers = [api.get("/me") for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert 1 <= int(answers[-1]["Retry-After"]) <= 61


def test_every_request_is_logged_with_the_tokens_id_never_the_token(client, caplog):
    user = UserFactory()
    row, token = token_create(user=user, name="x", scopes={"read"}, expires_in_days=None)
    with caplog.at_level("INFO", logger="games.api"):
        Api(client, token).get("/me")
    lines = [r.getMessage() for r in caplog.records if r.name == "games.api"]
    assert lines == [f"api GET /api/v1/me 200 token={row.pk} " + lines[0].split()[-1]]
    assert token not in caplog.text


def test_the_settings_page_makes_shows_once_and_revokes(client):
    user = UserFactory()
    client.force_login(user)
    url = reverse("api_access")
    page = client.post(url, {"section": "token", "name": "my bot", "account": user.pk,
                             "scopes": ["read", "play"], "expires": "90"})  # fmt: skip
    assert page.status_code == 200 and page["Cache-Control"] == "no-store"
    token = page.context["new_token"]
    assert token in page.content.decode()
    again = client.get(url).content.decode()
    assert token not in again and "my bot" in again
    row = ApiToken.objects.get(user=user)
    assert row.scope_set == {"read", "play"}
    client.post(url, {"section": "revoke", "token": row.pk})
    assert Api(client, token).get("/me").status_code == 401


def test_a_player_cannot_make_or_revoke_tokens_for_accounts_not_theirs(client):
    user, other = UserFactory(), UserFactory()
    theirs = ApiToken.objects.get(digest=token_digest(token_for(other, "read")))
    client.force_login(user)
    url = reverse("api_access")
    page = client.post(url, {"section": "token", "name": "x", "account": other.pk,
                             "scopes": ["read"], "expires": "30"})  # fmt: skip
    assert page.status_code == 400 and not ApiToken.objects.filter(user=user).exists()
    client.post(url, {"section": "revoke", "token": theirs.pk})
    assert ApiToken.objects.get(pk=theirs.pk).revoked_at is None


def test_an_own_bot_is_a_bot_with_an_owner_and_its_own_tokens(client):
    owner = UserFactory()
    client.force_login(owner)
    url = reverse("api_access")
    assert client.post(url, {"section": "bot", "username": "robo"}).status_code == 302
    bot = User.objects.get(username="robo")
    assert bot.is_bot and bot.owner == owner and not bot.is_site_bot
    assert not bot.has_usable_password()
    page = client.post(url, {"section": "token", "name": "robo's", "account": bot.pk,
                             "scopes": ["read", "play"], "expires": "never"})  # fmt: skip
    me = Api(client, page.context["new_token"]).get("/me").json()
    assert me["username"] == "robo" and me["is_bot"] and me["owner"] == owner.username
    profile = client.get(reverse("player", args=[owner.username])).content.decode()
    assert "robo" in profile
    assert "A bot of" in client.get(reverse("player", args=["robo"])).content.decode()


def test_own_bot_names_follow_the_name_rules():
    owner = UserFactory(username="ann")
    for name in ("ann", "Hard Bot", "bad name!", ""):
        with pytest.raises(ValidationError):
            own_bot_create(owner=owner, username=name)
    for n in range(3):
        own_bot_create(owner=owner, username=f"robo{n}")
    with pytest.raises(ValidationError):
        own_bot_create(owner=owner, username="robo9")


def test_deleting_the_owner_stops_their_bots_and_tokens(client):
    owner = UserFactory()
    bot = own_bot_create(owner=owner, username="robo")
    tokens = [token_for(owner, "read"), token_for(bot, "read")]
    account_delete(user=owner)
    assert not User.objects.get(pk=bot.pk).is_active
    assert [Api(client, t).get("/me").status_code for t in tokens] == [401, 401]


def test_an_own_bot_is_never_matched_as_a_person():
    owner = UserFactory()
    bot = own_bot_create(owner=owner, username="robo")
    with pytest.raises(GameError):
        quick.seek_create(player=bot, seats=2, preset="classic", time_per_move_days=None)
    league = leagues.league_create(user=owner, name="Club", preset="classic")
    with pytest.raises(GameError):
        leagues.league_join(league_id=league.pk, user=bot)
    cup = tournaments.tournament_create(
        host=owner, name="Cup", preset="classic", seats_per_table=2, rounds=2,
        time_per_move_days=3, starts_at=timezone.now() + timedelta(days=1),
    )  # fmt: skip
    with pytest.raises(GameError):
        tournaments.tournament_join(tournament_id=cup.pk, user=bot)
