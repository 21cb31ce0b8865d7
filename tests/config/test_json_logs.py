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
