"""Benchmark: the doorbell across processes, two ``companion serve`` on one PostgreSQL.

Process A takes the actions, process B holds the live streams: every ``changed`` event a
phone gets has crossed from A to B through PostgreSQL (NOTIFY in A's commit, B's listening
connection, B's in-process doorbell). It starts both servers (subprocesses on free
127.0.0.1 ports, fresh instance folders) on a fresh database, puts N/6 tables in it, opens N
streams on B (six per table), has some tables act through A and prints:

- fan-out p50/p95: from A's answer to an action until every stream of that table on B has
  the event (0 when the events came first); the target is p95 <= 100 ms;
- end to end p50/p95: from sending the action to A until the last of those streams has it
  (an upper bound: round trip plus fan-out);
- lost updates: every acknowledged action must show as one version on B afterwards, and
  every stream must have seen every version (checked; the exit status is 1 otherwise).

PostgreSQL: ``--database URL`` (a server the benchmark may create and drop a database in),
else ``COMPANION_BENCH_POSTGRES_URL`` or ``COMPANION_TEST_POSTGRES_URL``, else a throwaway
cluster of Debian's ``postgresql`` package in a temporary folder (as ``scripts/test.sh``).
Every loop is bounded in count and time, and all traffic goes to 127.0.0.1.

    .venv/bin/python bench/cross_process.py [--streams 600] [--actions 300] [--rate 20]
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import uuid
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import streams as bench  # noqa: E402  (bench/streams.py: the server, stream and player helpers)

TARGET_P95 = 0.100


@contextmanager
def throwaway_cluster():
    """A PostgreSQL cluster of its own on a free loopback port; its URL. As root the cluster
    belongs to the postgres system user (initdb refuses root)."""
    bins = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not bins:
        raise SystemExit("no PostgreSQL: pass --database URL, or install Debian's postgresql package")
    bindir = Path(bins[-1]).parent
    folder = Path(tempfile.mkdtemp(prefix="companion-bench-pg-"))
    as_pg = []
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
        as_pg = ["runuser", "-u", "postgres", "--"]
    port = bench.free_port()
    try:
        subprocess.run([*as_pg, str(bindir / "initdb"), "-D", str(folder / "data"), "-U", "postgres", "-A", "trust",
                        "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"], check=True, stdout=subprocess.DEVNULL)
        subprocess.run([*as_pg, str(bindir / "pg_ctl"), "-D", str(folder / "data"), "-l", str(folder / "log"), "-w",
                        "-o", f"-p {port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={folder} "
                              "-c fsync=off -c synchronous_commit=off -c max_connections=300", "start"],
                       check=True, stdout=subprocess.DEVNULL)
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*as_pg, str(bindir / "pg_ctl"), "-D", str(folder / "data"), "-m", "immediate", "stop"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def fresh_database(server_url: str):
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from companion.store import database_url

    admin = create_engine(database_url(server_url), isolation_level="AUTOCOMMIT")
    name = f"companion_bench_{uuid.uuid4().hex[:12]}"
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(admin.url).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def server_on(database: str, *args: str) -> bench.Server:
    server = bench.Server(*args)
    server.database = database
    server.env["COMPANION_DATABASE_URL"] = database
    return server


async def versions(port: int, tables: list) -> dict[str, int]:
    http = bench.Http(port)
    try:
        found = {}
        for table in tables:
            status, body = await http.request("GET", f"/api/games/{table.code}")
            if status != 200:
                raise RuntimeError(f"GET {table.code}: {status}")
            found[table.code] = json.loads(body)["version"]
        return found
    finally:
        http.close()


async def run(database: str, args) -> bool:
    a, b = server_on(database, *args.server_args), server_on(database, *args.server_args)
    tables_count = math.ceil(args.streams / bench.PHONES)
    acting = min(args.acting_tables, tables_count)
    print(f"== {args.streams} streams on process B over {tables_count} tables; {acting} tables act "
          f"through process A ==", flush=True)
    try:
        tables = bench.make_tables(a, tables_count, acting)
        a.start()
        b.start()
        streams = await bench.open_streams(b.port, tables, bench.PHONES, batch=args.batch,
                                           timeout=args.open_timeout)
        opened = sum(1 for s in streams if s.open.done() and not s.open.exception())
        print(f"opened {opened}/{len(streams)} streams on B", flush=True)
        await asyncio.sleep(1.0)  # every stream parked, B's listener LISTENing
        before = await versions(a.port, tables[:acting])
        round_trips, fan_outs, missed = await bench.players(a.port, tables[:acting], actions=args.actions,
                                                            rate=args.rate, seconds=args.seconds)
        # An action's fan-out counts from its answer: sent to A -> last stream on B is both.
        end_to_end = [rt + fo for rt, fo in zip(round_trips, fan_outs)] if not missed else []
        after = await versions(b.port, tables[:acting])
        landed = sum(after[code] - before[code] for code in before)
        held = sum(1 for s in streams if s.open.done() and not s.open.exception() and not s.closed)
        for stream in streams:
            stream.close()
        await asyncio.sleep(0.2)
    finally:
        a.stop(keep_log=args.server_log and f"{args.server_log}.a")
        b.stop(keep_log=args.server_log and f"{args.server_log}.b")
    p95 = bench.percentile(fan_outs, 95)
    print(f"streams held on B: {held}/{len(streams)}")
    print(f"actions through A: {len(round_trips)}; round trip {bench.ms(round_trips)}")
    print(f"cross-process fan-out (A's answer -> all {bench.PHONES} streams of the table on B): "
          f"{bench.ms(fan_outs)} ({len(fan_outs)}/{len(round_trips)} within 5 s)")
    if end_to_end:
        print(f"end to end (action sent to A -> last stream on B): {bench.ms(end_to_end)}")
    lost = len(round_trips) - landed
    print(f"versions on B: {landed} new for {len(round_trips)} acknowledged actions; "
          f"lost updates: {lost}; fan-outs missed: {missed}")
    ok = lost == 0 and missed == 0 and held == len(streams) and p95 <= TARGET_P95
    print(f"{'PASS' if ok else 'FAIL'}: fan-out p95 {p95 * 1000:.1f} ms (target <= {TARGET_P95 * 1000:.0f} ms), "
          f"{lost} lost, {missed} missed", flush=True)
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", help="PostgreSQL server URL (a database is created in it and dropped)")
    parser.add_argument("--streams", type=int, default=600, help="live streams on process B")
    parser.add_argument("--actions", type=int, default=300, help="actions through process A (at most)")
    parser.add_argument("--rate", type=float, default=20.0, help="actions a second, all acting tables together")
    parser.add_argument("--acting-tables", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60.0, help="time limit of the acting phase")
    parser.add_argument("--batch", type=int, default=200, help="streams opened at once")
    parser.add_argument("--open-timeout", type=float, default=120.0)
    parser.add_argument("--server-log", metavar="PATH", help="keep the servers' stderr as PATH.a and PATH.b")
    parser.add_argument("--server-args", nargs=argparse.REMAINDER, default=[],
                        help="passed on to both companion serve processes (last)")
    args = parser.parse_args()
    bench.raise_open_files()
    url = args.database or os.environ.get("COMPANION_BENCH_POSTGRES_URL") or \
        os.environ.get("COMPANION_TEST_POSTGRES_URL")

    def with_server(server_url: str) -> bool:
        with fresh_database(server_url) as database:
            return asyncio.run(run(database, args))

    if url:
        ok = with_server(url)
    else:
        with throwaway_cluster() as server_url:
            ok = with_server(server_url)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
