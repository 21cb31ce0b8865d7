"""The admin shows games, seats and moves, and changes none of them (the services do)."""

import pytest
from django.urls import reverse

from games.models import Game, Move, Seat
from tests.factories import MoveFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


@pytest.mark.parametrize("model", [Game, Seat, Move])
def test_games_seats_and_moves_are_listed_and_shown_read_only(staff_client, model):
    move = MoveFactory()
    row = {Game: move.game, Seat: move.game.seats.first(), Move: move}[model]
    name = model._meta.model_name
    assert staff_client.get(reverse(f"admin:games_{name}_changelist")).status_code == 200
    page = staff_client.get(reverse(f"admin:games_{name}_change", args=[row.pk]))
    assert page.status_code == 200 and b'name="_save"' not in page.content
    assert staff_client.get(reverse(f"admin:games_{name}_add")).status_code == 403
    assert (
        staff_client.post(reverse(f"admin:games_{name}_delete", args=[row.pk])).status_code == 403
    )
    assert model.objects.filter(pk=row.pk).exists()


PASSWORD = "correct horse battery"  # tests/factories.UserFactory's


def test_the_admins_login_is_the_sites_and_checks_no_password_itself(client, hashes):
    """The admin's own login checked every password posted to it, with no limit (30 wrong ones
    from one address: 30 answers, each a password hashed). It sends everyone to the site's login
    now, whose limits refuse a guess with 429 before any hashing, and back to the admin after."""
    staff = UserFactory(is_staff=True, is_superuser=True)
    admin_login, site_login = reverse("admin:login"), reverse("account_login")
    hashes.count = 0
    for attempt in [*range(30), PASSWORD]:
        guess = {"username": staff.username, "password": f"guess {attempt}"}
        response = client.post(admin_login, guess)
        assert response.status_code == 302 and response["Location"].startswith(site_login)
    assert hashes.count == 0
    assert client.get(reverse("admin:index")).status_code == 302  # not signed in
    sent = client.get(reverse("admin:index"), follow=True)
    assert sent.request["PATH_INFO"] == site_login
    login = client.post(sent.request["PATH_INFO"] + "?" + sent.request["QUERY_STRING"],
                        {"login": staff.username, "password": PASSWORD})  # fmt: skip
    assert login.status_code == 302 and login["Location"] == reverse("admin:index")
    assert client.get(reverse("admin:index")).status_code == 200
    assert client.post(admin_login, {"username": "x", "password": "y"})["Location"] == (
        reverse("admin:index")
    )  # a signed-in member of staff goes on in; nothing is checked
    assert hashes.count == 1  # the one login, at the site's


def test_the_admins_login_refuses_a_player_who_is_not_staff(client):
    """Signed in but not staff: a 403, not a loop between the admin and the site's login (which
    sends a signed-in player back where they came from)."""
    client.force_login(UserFactory())
    assert client.get(reverse("admin:login")).status_code == 403
    assert client.get(reverse("admin:index"))["Location"].startswith(reverse("admin:login"))


def test_the_admins_password_change_is_the_sites(staff_client, hashes):
    """The admin's own password change checked the old password with no limit; it is the site's,
    which shares the limit on wrong passwords (tests/views/test_account.py)."""
    response = staff_client.post(reverse("admin:password_change"), {"old_password": "guess"})
    assert response.status_code == 302
    assert response["Location"] == reverse("account_change_password")
    assert hashes.count == 0
