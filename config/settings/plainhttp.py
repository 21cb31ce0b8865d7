"""Production's settings served over plain HTTP on 127.0.0.1, for the runs that put the real
site under load or faults on this machine (`make loadtest`, `make faulttest`). What differs
from production, and why:

- No HTTPS: no redirect, no HSTS, cookies without the Secure flag (the runs' HTTP clients would
  not send them back over http://), so without production's __Host- names either (a __Host-
  cookie must be Secure). A real deployment terminates TLS at a proxy in front.
- Mail into files under VAR_DIR: there is no SMTP server here, and the runs count what was sent.
"""

import os

os.environ.setdefault("SECURE_SSL_REDIRECT", "0")

from .base import VAR_DIR, file_mailer
from .production import *  # noqa: F403

SECURE_SSL_REDIRECT = False
SECURE_HSTS_SECONDS = 0
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
SESSION_COOKIE_NAME = "sessionid"
CSRF_COOKIE_NAME = "csrftoken"
MAILERS = {"default": file_mailer(VAR_DIR / "mail")}
