"""Two nodes of the site behind nginx, on one private PostgreSQL and one private Redis: each node
its own gunicorn (pages), uvicorn (streams) and Celery worker, as docs/operations.md deploys
them; beat on node A only; nginx in front with deploy/nginx/http.conf and server.conf, the files
that docs/operations.md gives, and upstreams naming the two nodes. A response says which node
served it in `X-Upstream` (this run's own header, added in its server block), and nginx's access
log names the node of every request."""

from __future__ import annotations

import json
import os
import shutil
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import requests

from loadtest.processes import AppProcess
from tests.faults.site import ROOT, Site
from tests.workers import free_port, port_taken, wait_for

POSTGRES_PORT = 55442
REDIS_PORT = 56389
DEPLOY = ROOT / "deploy" / "nginx"


def nginx_binary() -> str | None:
    """Debian's nginx is in /usr/sbin, which a user's PATH may leave out."""
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin")


@dataclass
class Node:
    name: str
    web_port: int
    stream_port: int
    processes: list[AppProcess] = field(default_factory=list)

    @property
    def addresses(self) -> set[str]:
        return {f"127.0.0.1:{self.web_port}", f"127.0.0.1:{self.stream_port}"}


class Cluster(Site):
    def __init__(self, folder: Path):
        self.nginx_port = free_port()
        super().__init__(folder, postgres_port=POSTGRES_PORT, redis_port=REDIS_PORT)

    def front_port(self) -> int:
        return self.nginx_port

    def make_processes(self) -> list[AppProcess]:
        self.env["TRUSTED_PROXY_COUNT"] = "1"  # nginx appends the client to X-Forwarded-For
        self.env["PASSWORD_HASHING_SLOTS"] = "1"  # for the whole site: both nodes together
        # Two players played by a bot move faster than people: past 120 moves a minute each.
        self.env["RATE_LIMIT_MOVES_PER_MINUTE"] = "1000"
        self.nodes = [Node("a", self.port, free_port()), Node("b", free_port(), free_port())]
        for node in self.nodes:
            node.processes = [
                self.process(f"web-{node.name}", self.gunicorn(node.web_port)),
                self.process(f"streams-{node.name}", self.uvicorn(node.stream_port)),
                self.process(f"worker-{node.name}", self.celery_worker(f"node-{node.name}", 1)),
            ]
        self.worker = self.nodes[0].processes[2]
        self.beat = self.process("beat", self.celery_beat())
        self.nginx = self.process("nginx", [
            nginx_binary() or "nginx", "-p", str(self.folder), "-c", str(self.write_nginx_conf()),
            "-e", str(self.folder / "nginx-error.log"), "-g", "daemon off;",
        ])  # fmt: skip
        return [*(p for node in self.nodes for p in node.processes), self.beat, self.nginx]

    def uvicorn(self, port: int) -> list[str]:
        """The streams' process, with the options docs/operations.md gives."""
        return [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
                "--port", str(port), "--no-access-log", "--timeout-graceful-shutdown", "5",
                "--timeout-keep-alive", "5", "--limit-concurrency", "2000",
                "--h11-max-incomplete-event-size", "16384"]  # fmt: skip

    def write_nginx_conf(self) -> Path:
        def servers(port_of) -> str:
            return "\n".join(
                f"        server 127.0.0.1:{port_of(node)} max_fails=1 fail_timeout=10s;"
                for node in self.nodes
            )

        user = "user root;" if os.geteuid() == 0 else ""
        conf = self.folder / "nginx.conf"
        conf.write_text(f"""{user}
worker_processes 1;
pid {self.folder}/nginx.pid;
events {{ worker_connections 512; }}
http {{
    include {DEPLOY}/http.conf;
    log_format nodes '$request_id $upstream_addr $status "$request"';
    access_log {self.folder}/nginx-access.log nodes;
    client_body_temp_path {self.folder}/nginx-body;
    proxy_temp_path {self.folder}/nginx-proxy;
    upstream threethirteen_web {{
{servers(lambda node: node.web_port)}
        keepalive 16;
    }}
    upstream threethirteen_streams {{
{servers(lambda node: node.stream_port)}
    }}
    server {{
        listen 127.0.0.1:{self.nginx_port};
        add_header X-Upstream $upstream_addr always;
        include {DEPLOY}/server.conf;
    }}
}}
""")
        return conf

    def start(self) -> None:
        super().start()
        ports = [self.nginx_port, *(p for n in self.nodes for p in (n.web_port, n.stream_port))]
        self.wait_listening(ports, "not every process is listening")

    def wait_listening(self, ports: list[int], failure: str) -> None:
        if not wait_for(lambda: all(port_taken(p) for p in ports), 60, interval=0.2):
            raise RuntimeError(f"{failure}\n{self.logs()}")

    # Which node served what

    def node_at(self, upstreams: str, unknown: str) -> str:
        """The node nginx sent a request to last, from its list of upstream addresses (one per
        try), else `unknown`."""
        last = upstreams.split(", ")[-1]
        return next((n.name for n in self.nodes if last in n.addresses), unknown)

    def node_of(self, response: requests.Response | None) -> str:
        """The node that served a response through nginx (by the address nginx sent it to); "?"
        for a request that got no answer (Site.get's None: refused, or past its timeout)."""
        if response is None:
            return "?"
        return self.node_at(response.headers.get("X-Upstream", ""), "?")

    def access_log(self) -> list[tuple[str, str, int, str]]:
        """(request id, node, status, request line) of every request nginx has logged."""
        rows = []
        path = self.folder / "nginx-access.log"
        for line in path.read_text().splitlines() if path.exists() else []:
            request_id, upstream, status, request = line.split(" ", 3)
            rows.append((request_id, self.node_at(upstream, "-"), int(status), request.strip('"')))
        return rows

    def kill_node(self, name: str) -> None:
        """SIGKILL to every process of the node (gunicorn, uvicorn, the worker), as when the
        machine dies."""
        for process in self.node(name).processes:
            process.kill()

    def start_node(self, name: str) -> None:
        node = self.node(name)
        for process in node.processes:
            process.start()
        self.wait_listening([node.web_port, node.stream_port], f"node {name} did not start")

    def node(self, name: str) -> Node:
        return next(n for n in self.nodes if n.name == name)


class Listener:
    """A table's stream of events through nginx, as the browser's EventSource holds it: on a
    dropped connection it waits the `retry` the site sent (2 s) and connects again. Records
    each event's data with the time it arrived, and each connection with the node it reached."""

    def __init__(self, cluster: Cluster, game_id: int, session: str):
        self.url = f"{cluster.base}/games/{game_id}/events/"
        self.cluster, self.session = cluster, session
        self.events: list[tuple[float, dict]] = []
        self.connections: list[tuple[float, str]] = []  # (time connected, node)
        self.retry = 2.0
        self.stopped = threading.Event()
        self.response: requests.Response | None = None
        self.thread = threading.Thread(target=self.run, daemon=True)

    def __enter__(self) -> Listener:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stopped.set()
        if self.response is not None:
            self.response.close()
        self.thread.join(timeout=2)  # a daemon: a read blocked until its timeout is left

    @property
    def node(self) -> str | None:
        return self.connections[-1][1] if self.connections else None

    def reconnect(self) -> None:
        """Drop the connection (a new one is made at once): to land on the other node."""
        if self.response is not None:
            self.response.close()

    def run(self) -> None:
        while not self.stopped.is_set():
            try:
                with requests.get(
                    self.url, cookies={"sessionid": self.session}, stream=True, timeout=(3, 30)
                ) as response:
                    self.response = response
                    if response.status_code != 200:
                        raise requests.ConnectionError(response.status_code)
                    self.connections.append((time.monotonic(), self.cluster.node_of(response)))
                    self.read(response)
            except (requests.RequestException, AttributeError, ValueError):
                pass  # AttributeError: the body read after close() from another thread
            if not self.stopped.is_set():
                self.stopped.wait(self.retry)

    def read(self, response: requests.Response) -> None:
        for line in response.iter_lines(decode_unicode=True):
            if line.startswith("retry:"):
                self.retry = int(line.split(":", 1)[1]) / 1000
            elif line.startswith("data:"):
                self.events.append((time.monotonic(), json.loads(line.split(":", 1)[1])))

    def heard(self, version: int) -> float | None:
        """When an event of `version` (or later) arrived, if one has."""
        return next((t for t, data in self.events if data.get("v", -1) >= version), None)
