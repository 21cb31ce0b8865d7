"""The table in the browser: a turn played with the keyboard alone, the table in Czech, no
serious or critical accessibility violation (axe-core) on the table, dashboard, profile and
settings (and the new-game form), and the table at phone and desktop width (screenshots kept in
var/e2e-artifacts/)."""

import polib
import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings as django_settings

from config.translations import compile_all
from games.engine.cards import Card
from games.models import Game, Move, RoundScore
from tests.e2e.conftest import artifact
from tests.e2e.table import fresh, wait_for_version, wait_until
from tests.factories import play_on, started_game

pytestmark = [pytest.mark.e2e, pytest.mark.worker]

SERIOUS = {"serious", "critical"}


def my_turn_to_draw(game, user):
    """True once it is `user`'s turn and they have yet to draw."""
    seat = game.seats.get(user=user).index
    return game.to_move_seat == seat and game.version == game.turn_version


def game_at_my_turn(user, *, rounds_played=0, also=lambda game: True) -> Game:
    """A game against a bot, played on (through the services) to `user`'s turn to draw, once
    `rounds_played` whole rounds are over and `also(game)` holds."""
    game = started_game([user], seat_count=2, bots="medium")
    play_on(
        game,
        level="medium",
        until=lambda g: g.round_index >= rounds_played and my_turn_to_draw(g, user) and also(g),
    )
    assert fresh(game).status == Game.Status.ACTIVE, "the game ended before the state looked for"
    return game


def red_card_left_over(game) -> bool:
    """Someone was left holding a heart or a diamond in the round just over: the table's round
    summary shows it small and set apart from the melds."""
    last = RoundScore.objects.filter(game=game, round_index=game.round_index - 1)
    return any(Card.from_token(token).suit in "HD" for score in last for token in score.deadwood)


def open_table(page, game):
    page.goto(f"/games/{game.pk}/")
    page.locator(f"#table[data-version='{game.version}'] .your-turn").wait_for()


def test_a_turn_played_with_the_keyboard_alone(player):
    user, page = player()
    game = game_at_my_turn(user)
    open_table(page, game)
    version = game.version

    for _ in range(30):  # Tab through the page to the stock
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('#table .pile.stock')"):
            break
    else:
        pytest.fail("Tab never reached the stock")
    page.keyboard.press("Enter")
    wait_for_version(page, version + 1)
    # Focus lands on the card just drawn...
    focused = page.locator("#table form.hand .hand-card:focus")
    focused.wait_for()
    assert "just-drawn" in focused.get_attribute("class")
    drawn = focused.get_attribute("value")
    # ...and the arrow keys go from card to card.
    cards = page.locator("#table form.hand .hand-card").evaluate_all("cs => cs.map(c => c.value)")
    step = "ArrowLeft" if cards.index(drawn) > 0 else "ArrowRight"
    page.keyboard.press(step)
    chosen = page.locator("#table form.hand .hand-card:focus").get_attribute("value")
    assert chosen == cards[cards.index(drawn) + (-1 if step == "ArrowLeft" else 1)]
    page.keyboard.press("Space")
    wait_for_version(page, version + 2)

    move = Move.objects.get(game=game, seq=version + 1)
    assert move.action["card"] == chosen and not move.by_bot


def test_the_key_n_opens_the_next_game_waiting_but_not_while_typing(player):
    user, page = player()
    here, waiting = game_at_my_turn(user), game_at_my_turn(user)
    open_table(page, here)
    page.locator("#chat-text").press("n")  # a word in the chat is no shortcut
    assert page.locator("#chat-text").input_value() == "n"
    page.locator("#chat-text").fill("")
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("n")
    page.wait_for_url(f"**/games/{waiting.pk}/")
    page.locator(".your-turn").wait_for()


def test_the_table_in_czech(player):
    # The Czech words the page should show, from the catalogue itself: this fails while the
    # string is untranslated (or fuzzy), rather than passing on the English text.
    catalogue = polib.pofile(str(django_settings.LOCALE_PATHS[0] / "cs/LC_MESSAGES/django.po"))
    entry = catalogue.find("Your turn: draw a card")
    assert entry is not None, "'Your turn: draw a card' is not in the Czech catalogue"
    assert entry.msgstr and not entry.fuzzy, "'Your turn: draw a card' is not translated to Czech"
    compile_all()  # as make test does, in case the .po is newer than its .mo

    user, page = player()
    game = game_at_my_turn(user)
    open_table(page, game)
    assert page.locator("html").get_attribute("lang") == "en"
    page.locator("select#language-picker").select_option("cs")
    with page.expect_navigation():
        page.locator("form.language-picker button[type=submit]").click()
    assert page.locator("html").get_attribute("lang") == "cs"
    assert f"/games/{game.pk}/" in page.url  # back on the table
    assert entry.msgstr in page.locator("#table .turn").inner_text()


# axe-core leaves text of one character (a card's rank, a suit) undecided by default; judged.
AXE_OPTIONS = {"checks": {"color-contrast": {"options": {"ignoreLength": True}}}}


def serious_violations(page) -> list[str]:
    """axe-core's serious and critical violations, and what it could not decide about at that
    level ("incomplete": an ARIA attribute it doubts, say) except colour contrast, which it cannot
    judge over the table's gradient felt (those colours are checked by hand in site.css)."""
    results = Axe().run(page, options=AXE_OPTIONS).response
    doubts = [v for v in results["incomplete"] if v["id"] != "color-contrast"]
    return [
        f"{page.url}: {v['id']} ({v['impact']}): {v['help']}:\n"
        + "\n".join(f"    {' '.join(node['target'])}: {why(node)}" for node in v["nodes"][:8])
        for v in results["violations"] + doubts
        if v["impact"] in SERIOUS
    ]


def why(node) -> str:
    checks = node.get("any", []) + node.get("all", []) + node.get("none", [])
    return "; ".join(check["message"] for check in checks if check.get("message"))


def test_no_serious_accessibility_violation_on_the_table_dashboard_profile_and_settings(player):
    # axe-core is injected as an inline script, which the site's Content-Security-Policy forbids:
    # this context alone bypasses the CSP, for the checks.
    user, page = player(bypass_csp=True)
    # A table with a round summary, a scoresheet and small red cards left over.
    game = game_at_my_turn(user, rounds_played=1, also=red_card_left_over)
    open_table(page, game)
    found = serious_violations(page)
    pages = ("/", f"/players/{user.username}/", "/accounts/notifications/", "/games/new/")
    for path in (*pages, "/notices/"):
        page.goto(path)
        found += serious_violations(page)
    assert not found, "\n".join(found)


def test_the_table_fits_a_phone_and_a_desktop(player):
    user, page = player(width=360)
    game = game_at_my_turn(user, rounds_played=1)
    for width in (360, 1280):
        page.set_viewport_size({"width": width, "height": 800})
        open_table(page, game)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=str(artifact(f"table-{width}px.png")), full_page=True)


# Every refusal by the Content-Security-Policy, as the page itself hears of it (the script is
# Playwright's, added before the page's own: the policy does not apply to it).
CSP_LISTENER = """window.refusedByCsp = [];
document.addEventListener("securitypolicyviolation", (event) => window.refusedByCsp.push(
  `${event.violatedDirective} refused ${event.blockedURI || "an inline source"}`));"""


def test_the_chat_updates_without_breaking_the_content_security_policy(player):
    """A message refused, one sent, the chat swapped in by the answer and by the other player's
    poll, a player muted: neither page's console shows an error (but the refusal's 400), nor
    does either page hear of a refusal by the Content-Security-Policy."""
    ann, ann_page = player()
    bob, bob_page = player()
    game = started_game([ann, bob], seat_count=2)
    logged = []
    polls = {ann_page: [], bob_page: []}  # each page's table polls answered
    for page in (ann_page, bob_page):
        page.add_init_script(CSP_LISTENER)
        page.on("requestfinished", lambda r, own=polls[page]: "/table/" in r.url and own.append(r))
        page.on("console", lambda m: m.type in ("error", "warning") and logged.append(m.text))
        page.on("pageerror", lambda error: logged.append(str(error)))
        page.goto(f"/games/{game.pk}/")
        page.locator("#chat").wait_for()
    ann_page.evaluate("document.getElementById('chat-text').removeAttribute('required')")
    ann_page.locator("#chat-form button[type=submit]").click()  # refused: the form comes back
    ann_page.locator("#chat-form-error").wait_for()
    ann_page.locator("#chat-text").fill("Good luck, everyone")
    ann_page.locator("#chat-form button[type=submit]").click()
    for page in (ann_page, bob_page):  # bob's by his table's poll, out of band
        page.locator("#chat .chat-line", has_text="Good luck, everyone").wait_for()
    bob_page.locator("#chat-text").fill("And to you")
    bob_page.locator("#chat-form button[type=submit]").click()
    ann_page.locator("#chat .chat-line", has_text="And to you").wait_for()
    # Bob's table polls on with the chat version it last saw; until its poll has caught up with
    # his own message (the chat then comes with it), that answer could land after the mute's
    # and show the chat as it was before it.
    bob_page.locator("#table-marks input[name=c][value='2']").wait_for(state="attached")
    first = bob_page.locator("#chat .chat-line", has_text="Good luck")
    first.get_by_role("button", name="Mute").click()
    bob_page.locator("#chat .chat-muted").wait_for()
    polled = {page: len(answered) for page, answered in polls.items()}  # two polls more each
    wait_until(ann_page, lambda: all(len(polls[p]) >= polled[p] + 2 for p in polls), what="polls")
    refused = [line for line in logged if "400 (Bad Request)" not in line]
    for page in (ann_page, bob_page):
        refused += page.evaluate("window.refusedByCsp")
    assert not refused, "\n".join(refused)
