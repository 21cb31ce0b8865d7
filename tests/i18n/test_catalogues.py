"""Translations: every string a template shows goes through the translation machinery, every
catalogue holds every string of the code (a new or changed string fails here until `make messages`
has run and a translation is written), and every translation keeps its placeholders and has the
plural forms its language needs."""

import os
import re
import shutil
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command
from django.template.base import Lexer, TokenType

TEMPLATES = Path(settings.BASE_DIR) / "templates"
LOCALE = Path(settings.BASE_DIR) / "locale"
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != "en"]
PLURAL_FORMS = {"id": 1, "cs": 3, "is": 2, "hu": 2, "nl": 2}
MARK = "\x00"
LABEL_ATTRIBUTES = re.compile(r'\b(title|aria-label|alt|placeholder)\s*=\s*"([^"]*)"')
WORD = re.compile(r"[^\W\d_]{2,}")
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]")


def flatten(source: str) -> str:
    """The template's own text: every tag and variable a mark, translated blocks left out."""
    parts, hidden = [], 0
    for token in Lexer(source).tokenize():
        word = (token.contents.split() or [""])[0] if token.token_type == TokenType.BLOCK else ""
        if word in ("blocktranslate", "blocktrans", "comment"):
            hidden += 1
        elif word in ("endblocktranslate", "endblocktrans", "endcomment"):
            hidden -= 1
        if token.token_type == TokenType.TEXT and not hidden:
            parts.append(token.contents)
        elif token.token_type != TokenType.COMMENT:
            parts.append(MARK)
    return "".join(parts)


def unmarked_words(source: str) -> list[str]:
    text = flatten(source)
    found = [m.group(0) for m in LABEL_ATTRIBUTES.finditer(text) if WORD.search(m.group(2))]
    text = re.sub(r"<!--.*?-->|<(script|style)\b.*?</\1>", " ", text, flags=re.S)
    text = re.sub(r"<[^>]*>|&\w+;|&#\d+;", " ", text)
    return found + WORD.findall(text)


def test_the_scanner_finds_an_unmarked_word_and_passes_a_marked_one():
    source = (
        '{% load i18n %}<p title="Some text">Hello {{ x }}</p><a href="{% url "home" %}">'
        "{% translate 'Fine' %}</a>{% blocktranslate %}Also {{ x }}{% endblocktranslate %} 3·13"
    )
    assert unmarked_words(source) == ['title="Some text"', "Hello"]


def test_every_word_a_template_shows_is_marked_for_translation():
    unmarked = {}
    for path in sorted(TEMPLATES.rglob("*")):
        if path.suffix in (".html", ".txt") and (words := unmarked_words(path.read_text())):
            unmarked[str(path.relative_to(TEMPLATES))] = words
    assert not unmarked, f"wrap these in {{% translate %}}: {unmarked}"


def catalogue(code: str) -> polib.POFile:
    return polib.pofile(str(LOCALE / code / "LC_MESSAGES" / "django.po"))


def keys(po: polib.POFile) -> set[tuple]:
    return {(e.msgctxt, e.msgid, e.msgid_plural) for e in po if not e.obsolete}


IGNORED = [".venv", "var", "tests", "build", "locale"]


def test_every_catalogue_holds_every_string_of_the_code(tmp_path, settings, monkeypatch):
    """`make messages` run over the code into a copy of the catalogues adds nothing and removes
    nothing. It runs in a folder of links to the code: makemessages writes into any `locale`
    folder it finds beside the files it reads, which must not be the real one."""
    if not shutil.which("xgettext"):  # like the other tests that need a tool of the machine
        missing = "needs GNU gettext (xgettext) to check the catalogues: apt-get install gettext"
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail(f"REQUIRE_SERVICES=1 but this test {missing}", pytrace=False)
        pytest.skip(missing)
    base = Path(settings.BASE_DIR)
    for entry in base.iterdir():
        if entry.name not in IGNORED and not entry.name.startswith("."):
            (tmp_path / entry.name).symlink_to(entry)
    shutil.copytree(LOCALE, tmp_path / "locale")
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    monkeypatch.chdir(tmp_path)
    before = {
        code: (LOCALE / code / "LC_MESSAGES" / "django.po").read_bytes() for code in LANGUAGES
    }
    call_command(
        "makemessages", locale=LANGUAGES, no_location=True, no_obsolete=True, verbosity=0,
        symlinks=True, ignore_patterns=[f"{name}/*" for name in IGNORED],
    )  # fmt: skip
    for code in LANGUAGES:
        real = LOCALE / code / "LC_MESSAGES" / "django.po"
        assert real.read_bytes() == before[code], f"{code}: the check wrote into the catalogue"
        fresh = keys(polib.pofile(str(tmp_path / "locale" / code / "LC_MESSAGES" / "django.po")))
        kept = keys(catalogue(code))
        assert fresh - kept == set(), f"{code}: not in the catalogue yet (make messages)"
        assert kept - fresh == set(), f"{code}: no longer in the code (make messages)"


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_string_is_translated_with_its_placeholders_and_plural_forms(code):
    po = catalogue(code)
    forms = int(re.search(r"nplurals=(\d)", po.metadata["Plural-Forms"]).group(1))
    assert forms == PLURAL_FORMS[code]
    problems = []
    for entry in po:
        if entry.obsolete:
            continue
        if entry.fuzzy:
            problems.append(("fuzzy", entry.msgid))
        if entry.msgid_plural:
            wanted = set(PLACEHOLDER.findall(entry.msgid_plural))
            translations = [entry.msgstr_plural.get(i, "") for i in range(forms)]
            if len(entry.msgstr_plural) != forms:
                problems.append((f"{len(entry.msgstr_plural)} plural forms", entry.msgid))
        else:
            wanted = set(PLACEHOLDER.findall(entry.msgid))
            translations = [entry.msgstr]
        for text in translations:
            if not text.strip():
                problems.append(("untranslated", entry.msgid))
            elif set(PLACEHOLDER.findall(text)) - wanted or (
                not entry.msgid_plural and wanted - set(PLACEHOLDER.findall(text))
            ):
                problems.append(("placeholders differ", entry.msgid, text))
    assert not problems, f"{code}: {len(problems)} problems, first: {problems[:5]}"
