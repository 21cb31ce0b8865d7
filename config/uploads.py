"""Middleware: a multipart body over DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB) is answered 413 with
the site's page before anything reads it. Django's own limit counts a multipart body's fields
but not its files, so a file part of any size was read (to disk) wherever a form is posted; the
limit docs/security.md gives now holds without nginx in front. Django reads no more of a body
than its Content-Length, so that is what is measured."""

from django.conf import settings
from django.shortcuts import render


def multipart_size_limit(get_response):
    def middleware(request):
        if request.content_type == "multipart/form-data":
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            if length > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
                return render(request, "413.html", status=413)
        return get_response(request)

    return middleware
