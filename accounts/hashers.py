"""The site's password hashers: Django's, each hash taking one of the site's slots first
(hashing.py). Each keeps Django's algorithm name, so the hashes stored verify as before."""

from django.contrib.auth import hashers

from .hashing import hashing_slot


class SlotHashing:
    def encode(self, password, salt, *args, **kwargs):
        with hashing_slot():
            return super().encode(password, salt, *args, **kwargs)


class PBKDF2PasswordHasher(SlotHashing, hashers.PBKDF2PasswordHasher):
    """Django's default hasher (PBKDF2-SHA256)."""


class MD5PasswordHasher(SlotHashing, hashers.MD5PasswordHasher):
    """The tests' fast hasher (config/settings/test.py), capped like the real one."""
