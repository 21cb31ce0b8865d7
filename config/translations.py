"""Compile the translation catalogues (locale/ and locale_vendor/: */LC_MESSAGES/django.po ->
.mo) in pure Python, so that setting up needs no GNU gettext: `python -m config.translations`.
A catalogue is compiled when its .mo is missing or older than the .po; fuzzy and empty entries
are left out (the English text shows instead), as msgfmt does."""

import sys
from pathlib import Path

import polib

BASE_DIR = Path(__file__).resolve().parent.parent
LOCALE_DIR = BASE_DIR / "locale"
VENDOR_DIR = BASE_DIR / "locale_vendor"  # settings.LOCALE_PATHS says what it holds


def compile_all(folders=(LOCALE_DIR, VENDOR_DIR), force: bool = False) -> list[Path]:
    compiled = []
    paths = [path for folder in folders for path in folder.glob("*/LC_MESSAGES/*.po")]
    for po_path in sorted(paths):
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
