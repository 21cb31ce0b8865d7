"""`make loadtest`: production's settings over plain HTTP (plainhttp.py says what that changes),
served by gunicorn to locust's virtual players, with two more differences:

- A fast password hasher: every virtual player logs in through the real login page, and
  PBKDF2's deliberate half-second of CPU per login (measured by `make bench`'s bench_logins)
  would be the whole load while hundreds of players arrive. A real player logs in once in two
  weeks (ACCOUNT_SESSION_REMEMBER) and polls thousands of times in between.
- Login's limit per IP raised: every virtual player comes from 127.0.0.1.
"""

from .plainhttp import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
LOGIN_ADDRESS_LIMITS = {**LOGIN_ADDRESS_LIMITS, "login": (100000, 60)}  # noqa: F405
