"""Zoo generators: database and web server logs with planted errors (truth: the planted list)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from pathlib import Path
from urllib.error import URLError
from urllib.request import urlopen

from zoo_lib import Made, Truth, case, fresh, quiet, run, write

PG_SQL = """
CREATE TABLE customers (id int PRIMARY KEY, email text UNIQUE NOT NULL);
CREATE TABLE orders (id serial PRIMARY KEY, customer_id int REFERENCES customers(id), total numeric CHECK (total >= 0));
INSERT INTO customers SELECT g, 'user' || g || '@example.com' FROM generate_series(1, 50) g;
INSERT INTO orders (customer_id, total) SELECT 1 + g % 50, g FROM generate_series(1, 500) g;
INSERT INTO customers VALUES (7, 'dup@example.com');
INSERT INTO orders (customer_id, total) VALUES (9999, 10);
UPDATE orders SET total = -5 WHERE id = 3;
SELECT emial FROM customers;
SELECT 1 / (count(*) - count(*)) FROM customers;
SELEC * FROM orders;
"""
PG_PLANTED = [
    "duplicate key value violates unique constraint",
    "Key (id)=(7) already exists.",
    'violates foreign key constraint "orders_customer_id_fkey"',
    "Key (customer_id)=(9999) is not present in table",
    'violates check constraint "orders_total_check"',
    'column "emial" does not exist',
    "division by zero",
    'syntax error at or near "SELEC"',
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@case("postgres_server_log")
def postgres_server_log(_: Path) -> Made:
    work = fresh("postgres_server_log")
    os.chmod(work, 0o777)
    data, log = work / "data", work / "server.log"
    as_pg = "runuser -u postgres -- "
    quiet(f"{as_pg} initdb -D {data} -A trust -U postgres", work)
    port = _free_port()
    opts = (
        f"-c port={port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={work} "
        "-c log_connections=on -c log_disconnections=on -c log_statement=ddl -c log_checkpoints=on "
        "-c log_min_messages=info -c logging_collector=off"
    )
    quiet(f'{as_pg} pg_ctl -D {data} -l {log} -o "{opts}" -w start', work)
    try:
        for n in range(40):
            quiet(f"psql -h 127.0.0.1 -p {port} -U postgres -c 'SELECT {n}' postgres", work)
        write(work, {"load.sql": PG_SQL})
        quiet(f"psql -h 127.0.0.1 -p {port} -U postgres -f load.sql postgres", work)
        quiet(f"psql -h 127.0.0.1 -p {port} -U postgres -c CHECKPOINT postgres", work)
    finally:
        quiet(f"{as_pg} pg_ctl -D {data} -m fast -w stop", work)
    cmd = "cat server.log  # postgres 15 server log, planted SQL errors"
    out = log.read_bytes()
    truth = Truth(source="planted: the failing statements of load.sql", first_failure=PG_PLANTED[0])
    truth.must += [("error", text) for text in PG_PLANTED]
    return Made(out, cmd, 0, truth)


NGINX_CONF = """worker_processes 1;
daemon off;
error_log {work}/error.log info;
pid {work}/nginx.pid;
events {{ worker_connections 64; }}
http {{
    access_log {work}/access.log;
    client_body_temp_path {work}/tmp;
    proxy_temp_path {work}/tmp;
    fastcgi_temp_path {work}/tmp;
    uwsgi_temp_path {work}/tmp;
    scgi_temp_path {work}/tmp;
    server {{
        listen 127.0.0.1:{port};
        root {work}/www;
        location /api/ {{ proxy_pass http://127.0.0.1:{dead}; }}
        location /private/ {{ deny all; }}
    }}
}}
"""


@case("nginx_error_log")
def nginx_error_log(_: Path) -> Made:
    work = fresh("nginx_error_log")
    port, dead = _free_port(), _free_port()
    write(work, {"nginx.conf": NGINX_CONF.format(work=work, port=port, dead=dead), "www/index.html": "hi\n"})
    (work / "tmp").mkdir()
    (work / "www/private").mkdir()
    (work / "www/private/k.txt").write_text("k\n")
    server = subprocess.Popen(["nginx", "-c", str(work / "nginx.conf"), "-p", str(work)])
    planted = ["/missing-report-17.pdf", "/api/orders/42", "/private/k.txt", "/img/logo-v3.png"]
    try:
        time.sleep(1.0)
        for n in range(120):
            _get(port, "/index.html" if n % 29 else planted[(n // 29) % len(planted)])
    finally:
        server.terminate()
        server.wait(10)
    out = (work / "error.log").read_bytes()
    truth = Truth(source="planted: the requests that fail (missing files, dead upstream, denied path)")
    truth.must += [("path", p) for p in planted]
    truth.must += [("error", "Connection refused")]
    truth.first_failure = planted[0]
    return Made(out, "cat error.log  # nginx, error_log at info", 0, truth)


def _get(port: int, path: str) -> None:
    try:
        with urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as reply:
            reply.read()
    except (URLError, OSError):
        pass


@case("nginx_config_test")
def nginx_config_test(_: Path) -> Made:
    work = fresh("nginx_config_test")
    conf = NGINX_CONF.format(work=work, port=_free_port(), dead=_free_port())
    conf = conf.replace(
        "location /private/ {{ deny all; }}".replace("{{", "{").replace("}}", "}"),
        "location /private/ { deny all; }\n        proxy_buffer 16k;",
    )
    write(work, {"nginx.conf": conf})
    cmd = "nginx -t -c nginx.conf"
    out, rc = run(f"nginx -t -c {work}/nginx.conf -p {work}", work)
    line = next(n for n, text in enumerate(conf.splitlines(), 1) if "proxy_buffer " in text)
    truth = Truth(source="planted: one unknown directive", first_failure="proxy_buffer")
    truth.must += [("location", f"nginx.conf:{line}"), ("directive", "proxy_buffer")]
    return Made(out, cmd, rc, truth)


@case("redis_crash_report")
def redis_crash_report(_: Path) -> Made:
    work = fresh("redis_crash_report")
    port = _free_port()
    conf = f'port {port}\nbind 127.0.0.1\ndir {work}\nloglevel verbose\nenable-debug-command yes\nsave ""\n'
    write(work, {"redis.conf": conf})
    log = work / "redis.log"
    with log.open("wb") as sink:
        server = subprocess.Popen(
            ["redis-server", str(work / "redis.conf")], stdout=sink, stderr=subprocess.STDOUT
        )
        time.sleep(0.8)
        cli = f"redis-cli -p {port}"
        for n in range(15):
            quiet(f"{cli} SET key:{n} value-{n}", work)
        quiet(f"{cli} DEBUG SEGFAULT", work)
        server.wait(20)
    truth = Truth(source="planted: DEBUG SEGFAULT (the crash report and its signal)")
    truth.must += [("error", "crashed by signal"), ("signal", f"signal: {int(signal.SIGSEGV)}")]
    truth.first_failure = "crashed by signal"
    return Made(
        log.read_bytes(), "redis-server redis.conf  # then redis-cli DEBUG SEGFAULT", server.returncode, truth
    )
