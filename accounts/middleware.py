"""Refused forms answer a 4xx. django-allauth's views render an invalid form with 200; this site
answers bad input with 400 and a refusal for guessing too fast with 429, so that a client (or a
script trying passwords) is told plainly, and the page still shows the form and its message."""

from django.core.exceptions import NON_FIELD_ERRORS

RATE_LIMIT_CODES = ("too_many_login_attempts", "rate_limited")


class InvalidFormStatusMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_template_response(self, request, response):
        form = (response.context_data or {}).get("form")
        if request.method != "POST" or response.status_code != 200 or form is None:
            return response
        if not getattr(form, "is_bound", False) or not form.errors:
            return response
        limited = any(form.has_error(NON_FIELD_ERRORS, code) for code in RATE_LIMIT_CODES)
        response.status_code = 429 if limited else 400
        return response
