"""Compile the translation catalogues (locale/*/LC_MESSAGES/django.po -> .mo) in pure Python, so
that setting up needs no GNU gettext: `python -m config.translations`. A catalogue is compiled
when its .mo is missing or older than the .po; fuzzy and empty entries are left out (the English
text shows instead), as msgfmt does."""

import sys
from pathlib import Path

import polib

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


def compile_all(locale_dir: Path = LOCALE_DIR, force: bool = False) -> list[Path]:
    compiled = []
    for po_path in sorted(locale_dir.glob("*/LC_MESSAGES/*.po")):
        mo_path = po_path.with_suffix(".mo")
        if not force and mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        catalogue = polib.pofile(str(po_path))
        for entry in catalogue:
            if entry.fuzzy:
                entry.msgstr, entry.msgstr_plural = "", {}
        catalogue.save_as_mofile(str(mo_path))
        compiled.append(mo_path)
    return compiled


if __name__ == "__main__":
    done = compile_all(force="--force" in sys.argv)
    print(f"translations: {len(done)} catalogue(s) compiled" if done else "translations: current")
