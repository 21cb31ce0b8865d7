"""The embedded default (config.settings.local, what `make run` serves): DEBUG off unless asked
for, so that a stranger typing an address gets the site's own 404 page, not Django's technical
one listing every URL pattern; a secret key made once into var/; static files served by
whitenoise from what collectstatic gathered into var/."""

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

LOCAL_SITE = """
import json, django
from django.conf import settings
django.setup()
from django.core.management import call_command
from django.test import Client
call_command("collectstatic", interactive=False, verbosity=0)
client = Client(HTTP_HOST="127.0.0.1", raise_request_exception=False)
missing = client.get("/no-such-page/")
static = client.get("/static/css/site.css")
print(json.dumps({"DEBUG": settings.DEBUG, "SECRET_KEY": settings.SECRET_KEY,
                  "status": missing.status_code, "page": missing.content.decode(),
                  "static": static.status_code}))
"""


def _local_site(var_dir, **env_extra) -> dict:
    drop = ("SECRET_KEY", "DJANGO_SETTINGS_MODULE", "DEBUG", "DATABASE_URL", "REDIS_URL")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update({"VAR_DIR": str(var_dir), "DJANGO_SETTINGS_MODULE": "config.settings.local"})
    env.update(env_extra)
    result = subprocess.run(
        [sys.executable, "-c", LOCAL_SITE], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_make_run_serves_without_debug_its_own_404_page_and_the_static_files(tmp_path):
    site = _local_site(tmp_path)
    assert site["DEBUG"] is False
    assert site["status"] == 404
    assert "URLconf" not in site["page"] and "DEBUG = True" not in site["page"]
    assert "/static/css/site.css" in site["page"] and "<h1>" in site["page"]
    assert site["static"] == 200


def test_the_secret_key_is_made_once_into_var_and_kept(tmp_path):
    first, again = _local_site(tmp_path), _local_site(tmp_path)
    assert len(first["SECRET_KEY"]) >= 50 and first["SECRET_KEY"] == again["SECRET_KEY"]
    assert "not-secret" not in first["SECRET_KEY"]
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0  # the owner's alone


def test_debug_1_is_for_development(tmp_path):
    assert _local_site(tmp_path, DEBUG="1")["DEBUG"] is True


QUICK_PLAY = """
import json, django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from accounts.models import User
from games.models import Game
from games.competitions.quick import seek_create
seeks = [seek_create(player=User.objects.create_user(name), seats=2, preset="classic",
                     time_per_move_days=None) for name in ("ann", "bob")]
games = {seek.game_id for seek in seeks}
print(json.dumps({"games": len(games), "status": Game.objects.get(pk=games.pop()).status}))
"""


def test_quick_play_matches_on_the_embedded_default(tmp_path):
    """SQLite has no advisory locks: its IMMEDIATE transactions already let one seek write at a
    time. Two seekers there end in one started game, as on PostgreSQL."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update({"VAR_DIR": str(tmp_path), "DJANGO_SETTINGS_MODULE": "config.settings.local"})
    result = subprocess.run(
        [sys.executable, "-c", QUICK_PLAY], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    assert json.loads(result.stdout.strip().splitlines()[-1]) == {"games": 1, "status": "active"}
