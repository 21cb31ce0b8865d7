import os
import warnings

from django.core.asgi import get_asgi_application

# WhiteNoise hands static files to Django as a file's (synchronous) iterator, which Django's ASGI
# handler reads in a thread: fine for files of a few kilobytes, and said at every start.
warnings.filterwarnings("ignore", "StreamingHttpResponse must consume synchronous iterators")

# Servers and workers run production settings unless told otherwise: they refuse to start without
# a real SECRET_KEY, never with DEBUG. (manage.py, and so `make run`, defaults to local settings.)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")
# Each request's database work runs in a thread of its own here: PostgreSQL's connections come from
# a pool per process (config/settings/base.py), not one kept per thread.
os.environ.setdefault("DATABASE_POOL", "1")
application = get_asgi_application()
