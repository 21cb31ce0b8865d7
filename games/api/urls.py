"""The API's addresses, included by config/urls.py under /api/v1/ (namespace "api")."""

from . import api

urlpatterns, _app_name, app_name = api.urls  # the namespace ninja reverses its own pages by
