"""LOG_FORMAT=json (games/tracing.py): a JSON object a line, with the request id."""

import json
import logging

from games.tracing import REQUEST_ID, JsonLines, RequestIdFilter


def test_a_record_is_one_json_line_with_its_request_id_and_its_extra_fields():
    record = logging.makeLogRecord(
        {"name": "threethirteen.request", "levelname": "INFO", "msg": "GET %s %s",
         "args": ("/games/1/", 200), "status": 200, "view": "game"}
    )  # fmt: skip
    token = REQUEST_ID.set("abc123def456")
    try:
        assert RequestIdFilter().filter(record)
    finally:
        REQUEST_ID.reset(token)
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
