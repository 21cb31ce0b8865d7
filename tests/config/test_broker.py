"""The embedded default's broker (config/broker.py): a folder of message files that the web
process, beat and the worker write and the worker reads. Each message must arrive exactly once,
however the writes and the reads interleave, and a file that cannot be read must not stop the
worker."""

import json
import os
import subprocess
import sys
import threading

from kombu import Connection, Exchange, Queue

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SENDERS, MESSAGES_EACH = 4, 150


def queue_named(name: str) -> Queue:
    # A name for each test: kombu remembers the bindings a process made, whatever the folder.
    return Queue(name, Exchange(name), routing_key=name)


EMBEDDED_BROKER = """
import json
from config.settings import local
print(json.dumps({
    "url": local.CELERY_BROKER_URL,
    "transport": getattr(local, "CELERY_BROKER_TRANSPORT", None),
    "options": local.CELERY_BROKER_TRANSPORT_OPTIONS,
}))
"""

# A reader in a process of its own, as the worker is: it takes messages until it has them all
# (or its deadline passes), then prints what it took.
CONSUMER = """
import json, socket, sys, time
from kombu import Connection, Exchange, Queue
broker, name, expected = json.loads(sys.argv[1]), sys.argv[2], int(sys.argv[3])
taken = []
def take(body, message):
    taken.append(body["n"])
    message.ack()
with Connection(broker["url"], transport=broker["transport"],
                transport_options=broker["options"]) as connection:
    queue = Queue(name, Exchange(name), routing_key=name)
    with connection.Consumer(queue, callbacks=[take], accept=["json"]):
        print("ready", flush=True)
        deadline = time.monotonic() + 60
        while len(taken) < expected and time.monotonic() < deadline:
            try:
                connection.drain_events(timeout=0.5)
            except socket.timeout:
                pass
print(json.dumps(taken))
"""


def embedded_broker(var_dir) -> dict:
    """The broker `make run` uses (the local settings without REDIS_URL), in `var_dir`."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DJANGO_SETTINGS_MODULE")}
    env["VAR_DIR"] = str(var_dir)
    result = subprocess.run(
        [sys.executable, "-c", EMBEDDED_BROKER], cwd=ROOT, env=env, capture_output=True,
        text=True, timeout=60, check=True,
    )  # fmt: skip
    broker = json.loads(result.stdout.strip().splitlines()[-1])
    broker["options"]["polling_interval"] = 0.01  # a reader that asks as often as it can
    return broker


def connect(broker) -> Connection:
    return Connection(
        broker["url"], transport=broker["transport"], transport_options=broker["options"]
    )


def send(broker, queue: Queue, first: int, count: int, failures: list) -> None:
    try:
        with connect(broker) as connection, connection.Producer() as producer:
            for n in range(first, first + count):
                # A body of some size, so that writing one takes a while.
                body = {"n": n, "padding": "x" * 4096}
                producer.publish(body, exchange=queue.exchange, routing_key=queue.name)
    except Exception as error:  # a sender's failure fails the test, below
        failures.append(error)


def test_every_message_arrives_exactly_once_while_senders_write_and_a_worker_reads(tmp_path):
    broker, queue = embedded_broker(tmp_path), queue_named("race")
    with connect(broker) as connection:
        queue(connection.default_channel).declare()
    total = SENDERS * MESSAGES_EACH
    consumer = subprocess.Popen(
        [sys.executable, "-c", CONSUMER, json.dumps(broker), queue.name, str(total)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert consumer.stdout.readline().strip() == "ready", consumer.stderr.read()
        failures: list = []
        senders = [
            threading.Thread(
                target=send, args=(broker, queue, i * MESSAGES_EACH, MESSAGES_EACH, failures)
            )
            for i in range(SENDERS)
        ]
        for sender in senders:
            sender.start()
        for sender in senders:
            sender.join(timeout=60)
        out, err = consumer.communicate(timeout=90)
    finally:
        consumer.kill()
    assert not failures
    assert consumer.returncode == 0, err[-3000:]
    taken = json.loads(out.strip().splitlines()[-1])
    assert sorted(taken) == list(range(total))


def test_a_file_that_cannot_be_read_is_set_aside_and_the_reader_goes_on(tmp_path, caplog):
    broker, queue = embedded_broker(tmp_path), queue_named("broken")
    taken = []

    def take(body, message):
        taken.append(body["n"])
        message.ack()

    with connect(broker) as connection:
        queue(connection.default_channel).declare()
        with connection.Producer() as producer:
            for n in range(3):
                producer.publish({"n": n}, exchange=queue.exchange, routing_key=queue.name)
        # First in the folder's order: what a crash while writing the old way left behind.
        queue_folder = broker["options"]["data_folder_in"]
        with open(os.path.join(queue_folder, "0_half.broken.msg"), "wb") as half:
            half.write(b'{"body": "half')
        with connection.Consumer(queue, callbacks=[take]):
            while len(taken) < 3:
                connection.drain_events(timeout=5)
    assert sorted(taken) == [0, 1, 2]
    assert os.listdir(tmp_path / "broker" / "damaged") == ["0_half.broken.msg"]
    assert "0_half.broken.msg could not be read" in caplog.text


def test_a_reader_never_finds_an_exchange_table_half_written(tmp_path):
    """The worker and the web process each declare the queues they use: the first to bind one
    writes its exchange's table while others read it to route their messages."""
    broker, names = embedded_broker(tmp_path), [f"table{i}" for i in range(500)]
    failures: list = []

    def bind_all():
        with connect(broker) as connection:
            for name in names:
                queue_named(name)(connection.default_channel).declare()

    def read_all():
        with connect(broker) as connection:
            channel = connection.default_channel
            try:
                for name in names:
                    while not channel.get_table(name):  # until the binder has written it
                        pass
            except Exception as error:
                failures.append(error)

    reader, binder = threading.Thread(target=read_all), threading.Thread(target=bind_all)
    reader.start()
    binder.start()
    binder.join(timeout=60)
    reader.join(timeout=60)
    assert not reader.is_alive() and failures == []
