import contextlib
import json
import os
import subprocess
import sys

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_home_page_serves_htmx_from_this_site_and_csrf_in_hx_headers(client):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "/static/django_htmx/htmx" in html
    assert "https://" not in html.split("<body")[0]  # nothing from a CDN in <head>
    assert 'hx-headers=\'{"X-CSRFToken": "' in html
    assert "content-security-policy" in {k.lower() for k in response.headers}


def _check_production(env_extra, var_dir):
    env = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DJANGO_SETTINGS_MODULE")}
    env["VAR_DIR"] = str(var_dir)  # where SQLite lives when no DATABASE_URL is set
    env.update(
        {"DJANGO_SETTINGS_MODULE": "config.settings.production", "ALLOWED_HOSTS": "example.org"}
    )
    env.update(env_extra)
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_refuses_to_start_without_a_secret_key(tmp_path):
    result = _check_production({}, tmp_path)
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


@pytest.mark.parametrize("module", ["config.wsgi", "config.asgi", "config.celery"])
def test_a_server_or_worker_started_without_settings_runs_production_and_refuses(tmp_path, module):
    """No DJANGO_SETTINGS_MODULE and no SECRET_KEY: never DEBUG with a dummy key."""
    env = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DJANGO_SETTINGS_MODULE")}
    env["VAR_DIR"] = str(tmp_path)
    script = f"import {module}, django; django.setup()"
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert result.returncode != 0 and "SECRET_KEY" in result.stderr


@pytest.mark.slow  # a process of its own, on production settings
def test_production_passes_check_deploy_without_warnings(tmp_path):
    result = _check_production({"SECRET_KEY": "x7" * 30 + "-Zq!9kP@3mW#"}, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


PRODUCTION_SETTINGS = """
import json, django
from django.conf import settings
from django.urls import reverse
django.setup()
names = ["SESSION_COOKIE_SECURE", "SESSION_COOKIE_HTTPONLY", "SESSION_COOKIE_SAMESITE",
         "SESSION_COOKIE_NAME", "CSRF_COOKIE_SECURE", "CSRF_COOKIE_HTTPONLY", "X_FRAME_OPTIONS",
         "SECURE_PROXY_SSL_HEADER", "ALLOWED_HOSTS", "DEBUG", "INSTALLED_APPS",
         "ALLAUTH_TRUSTED_PROXY_COUNT"]
found = {name: getattr(settings, name, None) for name in names}
found["admin"] = reverse("admin:index")
found["script-src"] = settings.SECURE_CSP["script-src"]
print(json.dumps(found))
"""


def _production_settings(env_extra, var_dir):
    env = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DJANGO_SETTINGS_MODULE")}
    env.update(
        {"VAR_DIR": str(var_dir), "DJANGO_SETTINGS_MODULE": "config.settings.production",
         "SECRET_KEY": "x7" * 30 + "-Zq!9kP@3mW#", "ALLOWED_HOSTS": "a.example.org"}
    )  # fmt: skip
    env.update(env_extra)
    result = subprocess.run(
        [sys.executable, "-c", PRODUCTION_SETTINGS], cwd=ROOT, env=env, capture_output=True,
        text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_production_hardens_cookies_and_moves_the_admin_off_admin(tmp_path):
    found = _production_settings({}, tmp_path)
    assert found["admin"] == "/backstage/" and not found["DEBUG"]
    assert found["SESSION_COOKIE_SECURE"] and found["SESSION_COOKIE_HTTPONLY"]
    assert found["SESSION_COOKIE_SAMESITE"] == "Lax"
    assert found["SESSION_COOKIE_NAME"].startswith("__Host-")
    assert found["CSRF_COOKIE_SECURE"] and found["CSRF_COOKIE_HTTPONLY"]
    assert found["X_FRAME_OPTIONS"] == "DENY" and found["ALLOWED_HOSTS"] == ["a.example.org"]
    assert found["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert found["ALLAUTH_TRUSTED_PROXY_COUNT"] == 1  # the client's address, not the proxy's
    assert "'unsafe-inline'" not in found["script-src"]


def test_production_installs_no_development_tools(tmp_path):
    assert "devtools" not in _production_settings({}, tmp_path)["INSTALLED_APPS"]


@pytest.mark.slow  # processes of their own, on production settings
def test_production_takes_the_admin_address_and_the_proxy_header_from_the_environment(tmp_path):
    found = _production_settings({"ADMIN_URL": "/ops-7f3a", "PROXY_SSL_HEADER": ""}, tmp_path)
    assert found["admin"] == "/ops-7f3a/" and found["SECURE_PROXY_SSL_HEADER"] is None
    assert found["ALLAUTH_TRUSTED_PROXY_COUNT"] == 0  # nothing in front: X-Forwarded-For is a lie
    two = _production_settings({"TRUSTED_PROXY_COUNT": "2"}, tmp_path)
    assert two["ALLAUTH_TRUSTED_PROXY_COUNT"] == 2


def test_the_console_drops_the_table_polls_that_find_nothing_new(monkeypatch):
    import logging

    from config.logging import QuietPolls

    def line(status, path="/games/1/table/?v=3"):
        args = ("127.0.0.1:5000", "GET", path, "1.1", status)
        fmt = '%s - "%s %s HTTP/%s" %d'  # uvicorn's access line
        return logging.LogRecord("uvicorn.access", logging.INFO, "", 0, fmt, args, None)

    monkeypatch.delenv("LOG_POLLS", raising=False)
    assert not QuietPolls().filter(line(204))
    assert QuietPolls().filter(line(200)) and QuietPolls().filter(line(409))
    assert not QuietPolls().filter(line(304, "/static/css/site.css"))
    assert QuietPolls().filter(line(404, "/static/nope.css"))
    monkeypatch.setenv("LOG_POLLS", "1")
    assert QuietPolls().filter(line(204))


def test_serve_starts_a_child_that_died_again(monkeypatch):
    from games.management.commands import serve

    monkeypatch.setattr(serve, "RESTART_DELAY_SECONDS", 0)
    said = []
    child = serve.Child("worker", [sys.executable, "-c", "pass"], {}, said.append)
    first = child.process
    first.wait(timeout=30)
    child.check()
    assert child.process is not first and said == [
        "The worker stopped (exit code 0); starting it again."
    ]
    child.stop()
    child.process.wait(timeout=30)
    child.check()  # stopped on purpose: not started again
    assert len(said) == 1


@contextlib.contextmanager
def database_down_now():
    """The database really unreachable: the connection pointed at a port where nothing listens."""
    from django.db import connection

    saved = connection.settings_dict["PORT"]
    connection.close()
    connection.settings_dict["PORT"] = "9"
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict["PORT"] = saved


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_pages_answer_a_styled_503_and_healthz_json_while_the_database_is_down(client):
    from games import services
    from tests.factories import UserFactory

    user = UserFactory()
    services.heartbeat_record(name="worker")
    client.force_login(user)
    client.raise_request_exception = False
    with database_down_now():
        page = client.get(reverse("home"))
        health = client.get(reverse("healthz"))
    assert page.status_code == 503 and page["Retry-After"] == "30"
    assert (
        "Back in a moment" in page.content.decode()
        and "/static/css/site.css" in page.content.decode()
    )
    assert health.status_code == 503 and health["Content-Type"] == "application/json"
    assert health.json()["database"]["ok"] is False
    assert client.get(reverse("home")).status_code == 200  # and back when it is


def test_an_unexpected_error_is_a_styled_500_that_needs_no_database(rf):
    from config.errors import server_error

    try:
        raise RuntimeError("boom")
    except RuntimeError:
        response = server_error(rf.get("/"))
    assert response.status_code == 500 and "Something went wrong" in response.content.decode()


@pytest.mark.slow
def test_serve_prepare_migrates_makes_the_bots_serves_then_starts_the_worker(tmp_path):
    """`make run` is `serve --prepare`: on an empty var/ it migrates, collects the static files
    and makes the bot accounts in its own process, answers the first page, and only then starts
    the worker (whose start is proved by its heartbeat through the embedded broker)."""
    import signal
    import sqlite3

    import requests

    from tests.workers import free_port, port_taken, wait_for

    port, smtp = free_port(), free_port()
    drop = ("REDIS_URL", "DATABASE_URL", "DJANGO_SETTINGS_MODULE", "SITE_URL")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(VAR_DIR=str(tmp_path), MAIL_PLAY_SMTP=f"127.0.0.1:{smtp}")
    serve = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--prepare", f"127.0.0.1:{port}"], cwd=ROOT,
        env=env, stdout=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    database = tmp_path / "db.sqlite3"

    def rows(sql):
        with contextlib.closing(sqlite3.connect(database)) as db:
            return db.execute(sql).fetchall()

    try:
        assert wait_for(lambda: port_taken(port), timeout=180)
        assert requests.get(f"http://127.0.0.1:{port}/", timeout=30).status_code == 200
        assert (tmp_path / "staticfiles" / "css" / "site.css").exists()
        bots = rows("SELECT username FROM accounts_user WHERE username LIKE 'bot-%'")
        assert {"bot-easy", "bot-medium", "bot-hard", "bot-random"} <= {b for (b,) in bots}
        assert wait_for(lambda: rows("SELECT name FROM games_heartbeat"), timeout=120)
    finally:
        os.killpg(serve.pid, signal.SIGTERM)
        serve.wait(timeout=60)
