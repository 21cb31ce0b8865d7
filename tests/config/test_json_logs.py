"""LOG_FORMAT=json (games/tracing.py): a JSON object a line, with the request id."""

import json
import logging

from games.tracing import REQUEST_ID, JsonLines, record_with_request_id


def test_a_record_is_one_json_line_with_its_request_id_and_its_extra_fields():
    token = REQUEST_ID.set("abc123def456")
    try:
        record = record_with_request_id(
            "threethirteen.request", logging.INFO, __file__, 1, "GET %s %s", ("/games/1/", 200),
            None,
        )  # fmt: skip
    finally:
        REQUEST_ID.reset(token)
    record.status, record.view = 200, "game"
    text = JsonLines().format(record)
    assert "\n" not in text
    line = json.loads(text)
    assert line["message"] == "GET /games/1/ 200" and line["request_id"] == "abc123def456"
    assert line["status"] == 200 and line["view"] == "game" and line["level"] == "INFO"
    assert line["time"].endswith("Z") and "args" not in line and "msg" not in line


def test_a_failure_keeps_its_traceback_inside_its_one_line():
    try:
        raise ValueError("boom")
    except ValueError:
        import sys

        record = logging.makeLogRecord({"msg": "failed", "exc_info": sys.exc_info()})
    line = json.loads(JsonLines().format(record))
    assert "ValueError: boom" in line["error"] and line["request_id"] == ""


STREAMS = ["uvicorn", "config.asgi:application", "--no-access-log"]  # docs/operations.md


def test_the_streams_process_writes_only_json_lines(tmp_path):
    """uvicorn as deployed (docs/operations.md), with LOG_FORMAT=json: its own lines (started,
    stopping) are JSON too, and each request is the site's one JSON line, not uvicorn's plain
    access line beside it."""
    import os
    import subprocess
    import sys

    import requests

    from tests.workers import free_port, port_taken, wait_for

    port = free_port()
    drop = ("REDIS_URL", "DATABASE_URL", "DJANGO_SETTINGS_MODULE", "LOG_POLLS")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(
        LOG_FORMAT="json", VAR_DIR=str(tmp_path), DJANGO_SETTINGS_MODULE="config.settings.local"
    )
    log = tmp_path / "streams.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", *STREAMS, "--port", str(port)], env=env, stdout=out,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            assert wait_for(lambda: port_taken(port), timeout=60)
            answer = requests.get(f"http://127.0.0.1:{port}/no-such-page/", timeout=30)
            assert answer.status_code == 404
        finally:
            server.terminate()
            server.wait(timeout=30)
    lines = [line for line in log.read_text().splitlines() if line.strip()]
    plain = [line for line in lines if not line.startswith("{")]
    assert plain == []
    records = [json.loads(line) for line in lines]
    said = [r for r in records if r["logger"] == "threethirteen.request"]
    assert [(r["path"], r["status"]) for r in said] == [("/no-such-page/", 404)]
    assert said[0]["request_id"] == answer.headers["X-Request-ID"]
    assert any(r["logger"] == "uvicorn.error" for r in records)
    assert not any("color_message" in r for r in records)  # uvicorn's, with terminal colours
