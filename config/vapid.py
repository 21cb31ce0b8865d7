"""VAPID keys: the site's signature on its Web Push requests, so that a push service takes
pushes for a device only from the site it subscribed to. Production gives them in the
environment; `make run` makes a pair once into var/vapid.json (config/settings/local.py)."""

import base64
import json
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def vapid_keys_new() -> dict[str, str]:
    """A new P-256 pair as the browser and pywebpush take it: the public key as an uncompressed
    point, the private key as its 32-byte scalar, both base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return {
        "public": b64url(public),
        "private": b64url(key.private_numbers().private_value.to_bytes(32)),
    }


def vapid_keys_local(path: Path) -> dict[str, str]:
    """The pair kept in `path`, made on first use (only the owner may read it)."""
    if not path.exists():
        path.write_text(json.dumps(vapid_keys_new()))
        path.chmod(0o600)
    return json.loads(path.read_text())


if __name__ == "__main__":  # python -m config.vapid: a pair for .env
    keys = vapid_keys_new()
    print(f"VAPID_PUBLIC_KEY={keys['public']}\nVAPID_PRIVATE_KEY={keys['private']}")
