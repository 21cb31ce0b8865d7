import os
import warnings

from django.core.asgi import get_asgi_application

# WhiteNoise hands static files to Django as a file's (synchronous) iterator, which Django's ASGI
# handler reads in a thread: fine for files of a few kilobytes, and said at every start.
warnings.filterwarnings("ignore", "StreamingHttpResponse must consume synchronous iterators")

# Servers and workers run production settings unless told otherwise: they refuse to start without
# a real SECRET_KEY, never with DEBUG. (manage.py, and so `make run`, defaults to local settings.)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")
application = get_asgi_application()
