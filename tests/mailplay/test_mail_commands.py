"""Turn commands written in a reply mail (games/mailplay/commands.py)."""

import pytest
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from games.engine.cards import Card, make_deck
from games.mailplay.commands import Command, CommandError, parse_turn
from games.presentation import card_info
from tests.factories import wide

LANGUAGES = ["en", "id", "cs", "is", "hu", "nl"]
SEVEN_OF_HEARTS = (7, "H")
QUEEN_OF_SPADES = (12, "S")


@pytest.mark.parametrize(
    ("text", "commands"),
    [
        ("stock, discard 7h", [Command("stock"), Command("discard", SEVEN_OF_HEARTS)]),
        ("take, out qs", [Command("take"), Command("out", QUEEN_OF_SPADES)]),
        ("draw", [Command("stock")]),
        ("Draw.\nDiscard the 7♥ please", [Command("stock"), Command("discard", SEVEN_OF_HEARTS)]),
        ("take discard pile, go out with Q♠", [Command("take"), Command("out", QUEEN_OF_SPADES)]),
        ("take discard, discard 7h", [Command("take"), Command("discard", SEVEN_OF_HEARTS)]),
        ("take 7♥ then discard queen of spades",
         [Command("take", SEVEN_OF_HEARTS), Command("discard", QUEEN_OF_SPADES)]),
        ("discard 10d", [Command("discard", (10, "D"))]),
        ("discard joker", [Command("discard", (0, "J"))]),
        ("discard a ♠", [Command("discard", (1, "S"))]),
        ("discard a 7h", [Command("discard", SEVEN_OF_HEARTS)]),
        (wide("STOCK") + ", DISCARD 7H", [Command("stock"), Command("discard", SEVEN_OF_HEARTS)]),
    ],
)  # fmt: skip
def test_the_english_commands(text, commands):
    assert parse_turn(text) == commands


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("stapel, gooi harten 7", SEVEN_OF_HEARTS),  # Dutch, the suit first
        ("discard V♠", QUEEN_OF_SPADES),  # Dutch corner letter for a queen
        ("discard pik dáma", QUEEN_OF_SPADES),  # Czech
        ("discard kőr 7", SEVEN_OF_HEARTS),  # Hungarian
        ("discard hjarta 7", SEVEN_OF_HEARTS),  # Icelandic
        ("discard 7 hati", SEVEN_OF_HEARTS),  # Indonesian, the rank first
    ],
)
def test_cards_in_every_language(text, card):
    assert parse_turn(text)[-1] == Command("discard", card)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "Write a move"),
        ("hello there", "could not read “hello”"),
        ("7h", "Say what to do with the card"),
        ("stock 7h", "Say what to do with the card"),
        ("discard", "Name the card"),
        ("discard 11h", "Name the card"),
        ("stock, take", "one draw"),
        ("discard 7h, stock", "one draw"),
        ("discard 7h, out qs", "one draw"),
    ],
)
def test_what_is_not_a_turn_is_refused_saying_why(text, says):
    with pytest.raises(CommandError, match=says):
        parse_turn(text)


@given(card=st.sampled_from(make_deck(jokers=True)), language=st.sampled_from(LANGUAGES))
def test_every_card_as_the_site_prints_it_or_says_it_reads_back(card: Card, language):
    with translation.override(language):
        info = card_info(card)
    expected = (card.rank, card.suit)
    assert parse_turn(f"discard {card.face}") == [Command("discard", expected)]
    assert parse_turn(f"discard {info.label}") == [Command("discard", expected)]
    if not card.is_joker:
        assert parse_turn(f"discard {info.name}") == [Command("discard", expected)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_examples_each_language_gives_are_read(language):
    """The refusals show examples in the player's language: each must itself be a turn."""
    import re

    examples = []
    with translation.override(language):
        for text in ("", "discard", "stock, take"):
            with pytest.raises(CommandError) as refused:
                parse_turn(text)
            examples += re.findall(r"[“„]([^”“]+)[”“]", str(refused.value))
    assert len(examples) == 5
    for example in examples:
        assert parse_turn(example), example


MAIL_HELP = [
    "write your move at the top of your answer, such as “stock, discard 7h”, “take, out Q♠” or "
    "only “stock” (we then send you the card you drew, and you answer with your discard).",
    "Now answer with your discard, such as “discard 7h”, or go out with a card: “out 7h”.",
    "A turn mail you answer with your move (such as “stock, discard 7h”) plays it.",
    "You need not even open the site: answer the turn mail with your move, such as “stock, discard "
    "7h” or “take, out Q♠”, or click the mail's links (each asks you to confirm). We answer every "
    "mail, saying what was played or why not.",
]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_examples_the_mails_and_settings_give_are_read(language):
    import re

    from django.utils.translation import gettext

    with translation.override(language):
        examples = [e for help in MAIL_HELP for e in re.findall(r"[“„]([^”“]+)[”“]", gettext(help))]
    assert len(examples) == 8
    for example in examples:
        assert parse_turn(example), example
