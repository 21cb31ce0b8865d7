"""The site's own words read whole in every language (issue: at 360 px Dutch "Sortere/n",
"kleu/r", Czech "Řadi/t", "barv/a", a player's name "Alic/e" broke mid-word, the WILD band spilt
out of the small cards in Czech, and the Dutch menu took two lines at 1280 px). Served by the
live server alone: no worker is needed to draw a page."""

import pytest

from tests.e2e.conftest import artifact, log_in
from tests.factories import UserFactory, play_on, started_game

pytestmark = pytest.mark.e2e
LANGUAGES = ("en", "id", "cs", "is", "hu", "nl")

# Each word of the site's own short texts (the table's chips and labels, a round's names): the
# words whose glyphs lie on more than one line were broken inside.
BROKEN_WORDS = """
() => {
  const broken = [];
  const places = ".chip, .sorts, .group-label, .pile-label, .round-name";
  for (const element of document.querySelectorAll(places)) {
    if (!element.offsetParent) continue;  // not shown
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(match[0]);
      }
    }
  }
  return broken;
}
"""

# Each WILD band: inside its card and not cut (its text as wide as its box at most).
BANDS_OUTSIDE = """
() => [...document.querySelectorAll(".pc .w")].filter((band) => {
  const card = band.parentElement.getBoundingClientRect(), box = band.getBoundingClientRect();
  return box.left < card.left - 0.5 || box.right > card.right + 0.5
    || band.scrollWidth > band.clientWidth + 1;
}).map((band) => band.textContent)
"""


@pytest.fixture
def pages(browser, live_server):
    """pages(user, width, language): a page logged in as `user`, in `language`."""
    contexts = []

    def open_(user, width, language):
        context = browser.new_context(
            base_url=live_server.url, viewport={"width": width, "height": 800}, locale=language
        )
        contexts.append(context)
        return log_in(context.new_page(), user)

    yield open_
    for context in contexts:
        context.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["cs", "nl"])
def test_at_360_px_the_tables_words_break_between_words_never_inside(pages, language):
    alice = UserFactory(language=language, display_name="Alice")
    bram = UserFactory(language=language, display_name="Bram")
    game = started_game([alice, bram])
    play_on(game, until=lambda game: game.round_index == 1)  # a round's summary to read
    game.refresh_from_db()
    page = pages(game.seats.get(index=game.to_move_seat).user, 360, language)
    page.goto(f"/games/{game.pk}/")
    assert page.locator(".sorts .chip").count() == 2 and page.locator(".round-name").count() == 2
    assert page.evaluate(BROKEN_WORDS) == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_wild_band_stays_inside_the_small_cards(pages, language):
    page = pages(UserFactory(language=language), 360, language)
    page.goto("/how-to-play/")
    assert page.locator(".pc.small .w").count() > 0
    assert page.evaluate(BANDS_OUTSIDE) == []


@pytest.mark.django_db(transaction=True)
def test_the_menu_is_one_line_at_1280_px_in_every_language(pages):
    for language in LANGUAGES:
        page = pages(UserFactory(language=language, display_name=f"Maximiliana {language}"), 1280,
                     language)  # fmt: skip
        links = page.locator(".nav-links > *")
        tops = {
            round(box["y"]) for box in (links.nth(i).bounding_box() for i in range(links.count()))
        }
        assert len(tops) == 1, (language, tops)


# What runs past the screen or past the round summary's box (a cell of the summary), and each
# meld of three cards or fewer broken over two lines, on a table at `width` px.
SPILLS = """
(width) => {
  const found = [];
  const page = document.documentElement.scrollWidth;
  if (page > width) found.push(`the page is ${page} px wide`);
  for (const summary of document.querySelectorAll("#table .round-summary")) {
    const box = summary.getBoundingClientRect();
    for (const cell of summary.querySelectorAll("th, td")) {
      const right = cell.getBoundingClientRect().right;
      if (right > box.right + 0.5) {
        found.push(`"${cell.textContent.trim().slice(0, 20)}" ends at ${Math.round(right)} px,`
          + ` past the summary's ${Math.round(box.right)} px`);
      }
    }
  }
  for (const meld of document.querySelectorAll("#table .meld")) {
    const cards = [...meld.querySelectorAll(".pc")];
    const lines = new Set(cards.map((card) => Math.round(card.getBoundingClientRect().top)));
    if (cards.length <= 3 && lines.size > 1) found.push(`a meld of ${cards.length} on two lines`);
  }
  return found;
}
"""


def pages_of(user, playing, finished) -> list[str]:
    """The pages a player reads, beside the tables."""
    return [
        "/", "/lobby/", "/friends/", "/leaderboard/", "/games/new/", "/notices/", "/how-to-play/",
        "/accounts/notifications/", "/accounts/vacation/", f"/players/{user.username}/",
        f"/games/{playing.pk}/history/", f"/games/{playing.pk}/chat/",
        f"/games/{finished.pk}/replay/", f"/games/{finished.pk}/review/",
    ]  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_the_table_and_its_round_summary_fit_360_px_in_every_language(pages):
    """A game in play (the last round's summary open above the hand) and a finished game (its
    last round's summary, the ranking, the scoresheet), at 360 px in each language: nothing runs
    past the screen or past the summary's box (Dutch "Strafpunten" did, to 385 px), and no meld
    of three cards breaks over two lines (they did, 2 + 1); nor does a player's other pages."""
    people = [UserFactory(display_name="Alice"), UserFactory(display_name="Bram")]
    playing = started_game(people)
    play_on(playing, until=lambda game: game.round_index == 1)
    playing.refresh_from_db()
    finished = started_game(people)
    play_on(finished)
    found = []
    for language in LANGUAGES:
        for user in people:
            user.language = language
            user.save(update_fields=["language"])
        page = pages(playing.seats.get(index=playing.to_move_seat).user, 360, language)
        for game in (playing, finished):
            page.goto(f"/games/{game.pk}/")
            assert page.locator("#table .round-summary").count() == 1
            found += [
                f"{language}, game {game.pk}: {spill}" for spill in page.evaluate(SPILLS, 360)
            ]
        page.screenshot(path=str(artifact(f"round-summary-finished-{language}-360px.png")),
                        full_page=True)  # fmt: skip
        for path in pages_of(user, playing, finished):
            page.goto(path)
            width = page.evaluate("document.documentElement.scrollWidth")
            found += [f"{language}, {path}: {width} px"] if width > 360 else []
    assert not found, "\n".join(found)
