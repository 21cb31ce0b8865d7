"""Mail written to files for a person to read (the embedded default's var/mail/): Django's file
backend writes each message as it would go over the wire, its bodies quoted-printable, so a long
link breaks across lines with '=' and pasting it gives a 404. Here the bodies are 8-bit UTF-8 and
the headers unencoded, lines up to the 998 characters a mail line may have."""

import email.policy

from django.core.mail.backends import filebased

READABLE = email.policy.default.clone(utf8=True, max_line_length=998)


class ReadableFileBackend(filebased.EmailBackend):
    def write_message(self, message):
        self.stream.write(message.message(policy=READABLE).as_bytes() + b"\n")
        self.stream.write(b"-" * 79 + b"\n")
