"""The map matches the house: every repository path that README, docs/ and the code's docstrings
and comments name exists, so that a file moved or renamed cannot leave a stale pointer behind.

A path is a word that starts with one of the repository's top folders (`games/services.py`,
`docs/api.md`, `tests/e2e/`); placeholders (`templates/emails/<kind>.txt`, `tests/engine/…`)
match any name, a line number (`leagues.py:183`) or a fragment (`#table`) is left off, and a
template's or a static file's name may be given as Django finds it (`games/table.html`)."""

import ast
import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOP = ("games", "accounts", "config", "tests", "docs", "static", "templates", "devtools",
       "loadtest", "examples", "requirements", "locale", ".ci")  # fmt: skip
TOPS = "|".join(re.escape(top) for top in TOP)
PATH = re.compile(rf"(?<![\w/.@:-])((?:{TOPS})/[\w./<>{{}}*…-]*)")
ROOT_FILES = re.compile(r"(?<![\w/.-])([A-Z]+\.md)\b")  # README.md and the like
CODE = ("games", "accounts", "config", "devtools", "loadtest", "examples", "tests")


def prose_of_python(path: Path) -> str:
    """A module's docstrings and comments: what a reader takes as a pointer."""
    source = path.read_text(encoding="utf-8")
    parts = [
        token.string
        for token in tokenize.generate_tokens(io.StringIO(source).readline)
        if token.type == tokenize.COMMENT
    ]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            parts.append(ast.get_docstring(node, clean=False) or "")
    return "\n".join(parts)


def documents():
    for top in ("README.md", "pyproject.toml", "Makefile", ".ci/run"):
        yield ROOT / top, (ROOT / top).read_text(encoding="utf-8")
    for doc in sorted((ROOT / "docs").glob("**/*.md")):
        yield doc, doc.read_text(encoding="utf-8")
    for top in CODE:
        for module in sorted((ROOT / top).glob("**/*.py")):
            if "migrations" not in module.parts:
                yield module, prose_of_python(module)


def exists(named: str) -> bool:
    named = re.sub(r"(:\d+)+$|#.*$", "", named).rstrip(".,;:)'\"`")
    module, dot, _attribute = named.partition(".")
    if dot and (ROOT / f"{module}.py").exists():
        return True  # a module's attribute: games/competitions/tournaments.round_seating
    pattern = re.sub(r"<[^>]*>|\{[^}]*\}|…|\.\*", "*", named)
    for base in (ROOT, ROOT / "templates", ROOT / "static"):
        if any(True for _ in base.glob(pattern.rstrip("/") or ".")):
            return True
    return False


def test_every_repository_path_named_in_the_docs_and_the_code_exists():
    stale = []
    for document, text in documents():
        for named in set(PATH.findall(text)) | set(ROOT_FILES.findall(text)):
            if named.rstrip("/.") in TOP:
                continue
            if not exists(named):
                stale.append(f"{document.relative_to(ROOT)}: {named}")
    assert not stale, "named but not in the repository:\n" + "\n".join(sorted(stale))
