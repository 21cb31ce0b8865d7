"""Two nodes behind nginx (tests/nodes/cluster.py): a whole game whose requests alternate between
the nodes; a stream held on one node hears a move made through the other as soon as through its
own; a node killed during play loses no move, no mail and no stream for long; the rate limits
and the password-hashing cap count both nodes together.

`make nodetest` runs them (marker `nodes`, not part of `make test`: three to four minutes, and they
need Debian's nginx)."""

import secrets
import statistics
import threading
import time

import pytest
import requests

from games.engine import GameState
from games.engine.bots import MediumBot
from tests.faults.site import (
    RECOVERY_LIMIT,
    Scene,
    audit,
    bot_turn_pending,
    bounded_wait,
    recovery,
)
from tests.nodes.cluster import Cluster, Listener

pytestmark = pytest.mark.nodes
PLAYER = MediumBot()  # plays each person's seat, so that a game ends in a few hundred moves
PASSWORD = "correct horse battery"  # tests/factories.py


@pytest.fixture
def scene(cluster: Cluster) -> Scene:
    assert bounded_wait(cluster.healthy, 120, interval=0.5)[0], cluster.logs()
    return cluster.scene()


def play(cluster: Cluster, scene: Scene, game_id: int) -> tuple[int, str, float]:
    """The person to move plays as the medium bot would, through nginx: (the version the move
    made, the node that took it, when it was sent)."""
    version, action, session = cluster.next_move(scene, game_id, bot=PLAYER)
    sent = time.monotonic()
    status = cluster.post_move(scene, game_id, version, action, session)
    assert status == 302, (status, action, cluster.describe(scene))
    return version + 1, cluster.node_of(cluster.last_response), sent


def over(cluster: Cluster, game_id: int) -> bool:
    return GameState.from_dict(cluster.game(game_id)[0]).is_over


def stream_on(cluster: Cluster, listener: Listener, node: str) -> None:
    """Reconnect the listener until its stream is held on `node` (nginx takes turns)."""
    for _ in range(8):
        assert bounded_wait(lambda: listener.node, 15)[0], cluster.logs()
        if listener.node == node:
            return
        count = len(listener.connections)
        listener.reconnect()
        assert bounded_wait(lambda n=count: len(listener.connections) > n, 15)[0], cluster.logs()
    raise AssertionError(f"the stream never reached node {node}: {listener.connections}")


def test_a_whole_game_alternates_between_the_nodes(cluster, scene, figure):
    before = len(cluster.access_log())
    moves = {"a": 0, "b": 0}
    deadline = time.monotonic() + 300
    while not over(cluster, scene.people):
        assert time.monotonic() < deadline, "the game did not end in 5 minutes"
        _, node, _ = play(cluster, scene, scene.people)
        moves[node] += 1
        if sum(moves.values()) % 3 == 0:  # the player looks at the table now and then
            mover = scene.seats[scene.people][cluster.game(scene.people)[2] or 0]
            table = cluster.get(f"/games/{scene.people}/", cookies={"sessionid": mover})
            assert table is not None and table.status_code == 200
    logged = cluster.access_log()[before:]
    served = {name: sum(1 for row in logged if row[1] == name) for name in ("a", "b")}
    total = sum(moves.values())
    assert min(moves.values()) > total * 0.3, moves
    assert min(served.values()) > len(logged) * 0.4, served
    assert all(row[2] < 500 for row in logged), [row for row in logged if row[2] >= 500]
    # The request id nginx made is the one the site says back (and logs, and hands its tasks).
    last = cluster.last_response
    assert last.headers["X-Request-ID"] in {row[0] for row in logged}
    assert bounded_wait(lambda: cluster.mail_rows().get("pending", 0) == 0, 60)[0]
    audit(cluster, scene)
    figure("a whole game: moves on A / B", f"{moves['a']} / {moves['b']} of {total}")
    figure("a whole game: requests on A / B", f"{served['a']} / {served['b']}")


def test_a_stream_on_one_node_hears_a_move_through_the_other_as_soon(cluster, scene, figure):
    person = scene.seats[scene.people][0]
    heard: dict[str, list[float]] = {"a": [], "b": []}
    with Listener(cluster, scene.people, person) as listener:
        stream_on(cluster, listener, "b")
        connections = len(listener.connections)
        for _ in range(40):
            version, node, sent = play(cluster, scene, scene.people)
            arrived, _ = bounded_wait(lambda v=version: listener.heard(v), 5, interval=0.005)
            assert arrived, f"the stream on B did not hear move {version} made on {node}"
            heard[node].append((arrived - sent) * 1000)
        assert len(listener.connections) == connections, "the stream moved off node B"
    assert heard["a"] and heard["b"], heard
    across, within = statistics.median(heard["a"]), statistics.median(heard["b"])
    # The same path either way: the move's commit publishes on Redis, which every node's
    # streams listen to. A generous margin for this shared two-core machine.
    assert across < within + 100 and max(heard["a"]) < 1000, heard
    figure("move sent to event heard, stream on B (ms)",
           f"move on A: p50 {across:.0f}, max {max(heard['a']):.0f}; "
           f"move on B: p50 {within:.0f}, max {max(heard['b']):.0f}")  # fmt: skip


def login(cluster: Cluster, base: str, username: str, password: str) -> int:
    token = secrets.token_hex(16)  # the double-submit cookie: any secret the page would set
    response = requests.post(
        f"{base}/accounts/login/",
        data={"login": username, "password": password, "csrfmiddlewaretoken": token},
        cookies={"csrftoken": token},
        timeout=15,
        allow_redirects=False,
    )
    cluster.last_response = response
    return response.status_code


def usernames(cluster: Cluster, game_id: int) -> list[str]:
    rows = cluster.query(
        "SELECT u.username FROM accounts_user u JOIN games_seat s ON s.user_id = u.id "
        "WHERE s.game_id = %s AND NOT u.is_bot ORDER BY s.index",
        (game_id,),
    )
    return [row[0] for row in rows]


def test_the_limits_count_both_nodes_together(cluster, scene):
    """The chat's five messages a minute, five wrong passwords for one account, and one
    password hashed at a time (PASSWORD_HASHING_SLOTS=1) hold for the site, not per node."""
    both, _ = bounded_wait(lambda: cluster.node_of(cluster.get("/healthz")) == "b", 30)
    assert both, "node B takes no requests"
    person, token = scene.seats[scene.people][0], secrets.token_hex(16)
    answers = []
    for number in range(6):
        response = requests.post(
            f"{cluster.base}/games/{scene.people}/chat/post/",
            data={"text": f"hello {number}"},
            cookies={"sessionid": person, "csrftoken": token},
            headers={"X-CSRFToken": token},
            timeout=10,
            allow_redirects=False,
        )
        answers.append((response.status_code, cluster.node_of(response)))
    assert {node for _, node in answers[:5]} == {"a", "b"}, answers
    assert all(status < 400 for status, _ in answers[:5]) and answers[5][0] == 429, answers

    ann, ben = usernames(cluster, scene.people)
    nodes = set()
    for guess in range(5):
        assert login(cluster, cluster.base, ann, f"guess {guess}") == 400
        nodes.add(cluster.node_of(cluster.last_response))
    assert nodes == {"a", "b"}
    assert login(cluster, cluster.base, ann, PASSWORD) == 429  # the right one too, for now

    # Two logins at once, one straight to each node's gunicorn: one is hashed, the other is
    # told to try again in a moment (503), whichever node it reached.
    bases = [f"http://127.0.0.1:{node.web_port}" for node in cluster.nodes]
    for _ in range(3):
        barrier, statuses = threading.Barrier(2), []

        def one(base, barrier=barrier, statuses=statuses):
            barrier.wait()
            statuses.append(login(cluster, base, ben, PASSWORD))

        threads = [threading.Thread(target=one, args=(base,)) for base in bases]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
        assert sorted(statuses) == [302, 503], statuses


def test_a_node_killed_during_play_loses_nothing(cluster, scene, figure):
    """Node B (its gunicorn, uvicorn and worker) gets SIGKILL while the bot's turn is held
    midway on a worker and a player's stream is held on B. The players go on through node A:
    their moves, the bot's turn, their mail and their stream; then B comes back and takes its
    share again. Each figure is seconds from the kill; a player who watches the table gets no
    mail, so the mail is counted once the stream has shown it works and is closed."""
    person = scene.seats[scene.people][0]
    with Listener(cluster, scene.people, person) as listener:
        stream_on(cluster, listener, "b")
        play(cluster, scene, scene.people)
        logs = [process.log for node in cluster.nodes for process in node.processes[2:]]

        def bot_tasks():
            return sum(log.read_text().count("games.tasks.bot_move[") for log in logs)

        started = bot_tasks()
        bot_version = bot_turn_pending(cluster, scene)
        with cluster.game_locked(scene.bots):
            assert bounded_wait(lambda: bot_tasks() > started, 20)[0], cluster.logs()
            cluster.kill_node("b")
            killed = time.monotonic()
        figures = recovery(cluster, scene, bot_version, mail=False)
        on_a, _ = bounded_wait(lambda: listener.node == "a", 30)
        assert on_a, f"the stream did not reconnect to A: {listener.connections}"
        figures["stream"] = listener.connections[-1][0] - killed
        version, node, _ = play(cluster, scene, scene.people)
        assert node == "a"
        assert bounded_wait(lambda: listener.heard(version), 5)[0], "the new stream is deaf"
    assert bounded_wait(cluster.no_mail_pending, RECOVERY_LIMIT)[0], cluster.logs()
    figures["mail"] = time.monotonic() - killed
    cluster.start_node("b")
    back, _ = bounded_wait(lambda: cluster.node_of(cluster.get("/healthz")) == "b", 30)
    assert back, "node B did not get requests again"
    audit(cluster, scene)
    figure("node B killed: working again after (s)",
           ", ".join(f"{k} {v:.1f}" for k, v in figures.items()))  # fmt: skip
