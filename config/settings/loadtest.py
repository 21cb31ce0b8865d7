"""`make loadtest`: production settings, served over plain HTTP on 127.0.0.1 by gunicorn to
locust's virtual players. What differs from production, and why:

- No HTTPS: no redirect, no HSTS, cookies without the Secure flag (locust's client would not
  send them back over http://), so without production's __Host- names either. A real deployment terminates TLS at a proxy in front.
- A fast password hasher: every virtual player logs in through the real login page, and
  PBKDF2's deliberate half-second of CPU per login (measured by `make bench`'s bench_logins)
  would be the whole load while hundreds of players arrive. A real player logs in once in two
  weeks (ACCOUNT_SESSION_REMEMBER) and polls thousands of times in between.
- Login's limit per IP raised: every virtual player comes from 127.0.0.1.
- Mail into a folder under VAR_DIR: there is no SMTP server here.
"""

from .base import VAR_DIR
from .production import *  # noqa: F403

SECURE_SSL_REDIRECT = False
SECURE_HSTS_SECONDS = 0
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
SESSION_COOKIE_NAME = "sessionid"  # a __Host- name is only valid on a Secure cookie
CSRF_COOKIE_NAME = "csrftoken"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
ACCOUNT_RATE_LIMITS = {**ACCOUNT_RATE_LIMITS, "login": "100000/m/ip"}  # noqa: F405
MAILERS = {
    "default": {
        "BACKEND": "django.core.mail.backends.filebased.EmailBackend",
        "OPTIONS": {"file_path": str(VAR_DIR / "mail")},
    }
}
