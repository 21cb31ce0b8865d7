import os

from django.core.wsgi import get_wsgi_application

# Servers and workers run production settings unless told otherwise: they refuse to start without
# a real SECRET_KEY, never with DEBUG. (manage.py, and so `make run`, defaults to local settings.)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")
application = get_wsgi_application()
