"""``memorysync-server serve --host --port --db --workers --api-key KEY[=TENANT] --search MODE ...`` (env: ``MEMORYSYNC_SERVER_*``)."""

from __future__ import annotations

import argparse
import difflib
import inspect
import json
import logging
import os
import shutil
import socket
import sys
import tempfile
import threading
from collections.abc import Sequence
from typing import Any

from . import preflight
from .defaults import (
    DEFAULT_BODY_TIMEOUT,
    DEFAULT_DB,
    DEFAULT_ENCODER,
    DEFAULT_HOST,
    DEFAULT_LOG_FORMAT,
    DEFAULT_LOG_LEVEL,
    DEFAULT_MAX_BODY_BYTES,
    DEFAULT_METRICS,
    DEFAULT_PORT,
    DEFAULT_RECALL_CHARS,
    DEFAULT_SEARCH,
    DEFAULT_TENANT,
    DEFAULT_WORKERS,
    ENCODER_SETTINGS,
    LOG_FORMATS,
    METRICS_DIR_ENV,
    METRICS_MODES,
    SEARCH_MODES,
    is_postgres,
)
from .http.auth import KeyRing
from .http.logs import log_config
from .version import version

LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (0-65535; 0: a free one)") from None
    if not 0 <= port < 65536:
        raise argparse.ArgumentTypeError(f"{port} is not a port number (0-65535; 0: a free one)")
    return port


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of characters (e.g. 700)") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} characters leave no room for a memory: give 1 or more")
    return value


def _seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < seconds < 3600:
        raise argparse.ArgumentTypeError(f"{text} is not a number of seconds between 0 and 3600")
    return seconds


class _Parser(argparse.ArgumentParser):
    """Names an unknown option with the usage of the command it was given to.

    Plain argparse reports a subcommand's unknown option with the top-level usage, and an unknown
    option before any command as a missing COMMAND, without naming it."""

    def parse_known_args(  # type: ignore[override]  # typeshed's overloads; the runtime signature is this
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(self._unknown(extras))
        return parsed, []

    def _unknown(self, extras: list[str]) -> str:
        message = f"unrecognized arguments: {' '.join(extras)}"
        options = [o for o in self._option_string_actions if o.startswith("--")]
        for extra in extras:
            if extra.startswith("-"):
                close = difflib.get_close_matches(extra.split("=", 1)[0], options, n=1)
                if close:
                    return f"{message} (did you mean {close[0]}?)"
        return message


class _HelpWithDefaults(argparse.ArgumentDefaultsHelpFormatter):
    """Shows each option's default, except for flags and options that are simply absent."""

    def _get_help_string(self, action: argparse.Action) -> str:
        if action.default is None or action.default is False:
            return action.help or ""
        return super()._get_help_string(action) or ""


def _parser() -> argparse.ArgumentParser:
    env = os.environ.get
    parser = _Parser(
        prog="memorysync-server",
        description="A local MemorySync server: the MemorySync API, a memory inspector and API docs.",
        epilog="Start one with `memorysync-server serve`, then export the two lines it prints.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    # Not required=True: argparse would then report a missing COMMAND before an unknown option.
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    serve = sub.add_parser(
        "serve",
        help="serve the MemorySync API over HTTP",
        description="Serve the MemorySync API, the inspector (/) and API docs (/docs) over HTTP. "
        "Every option can also come from the environment variable it names; "
        "defaults shown are the values this command would use now.",
        formatter_class=_HelpWithDefaults,
    )
    serve.add_argument(
        "--host",
        default=env("MEMORYSYNC_SERVER_HOST", DEFAULT_HOST),
        help="address to listen on (0.0.0.0: every interface). Env: MEMORYSYNC_SERVER_HOST.",
    )
    serve.add_argument(
        "--port",
        type=_port,
        default=env("MEMORYSYNC_SERVER_PORT", str(DEFAULT_PORT)),
        help="TCP port to listen on (0: a free one, named in the URL printed at start). "
        "Env: MEMORYSYNC_SERVER_PORT.",
    )
    serve.add_argument(
        "--db",
        default=env("MEMORYSYNC_SERVER_DB", DEFAULT_DB),
        help="a SQLite file (created when missing), or postgresql://user:password@host/database (pip install "
        "'memorysync-kit[postgres]'). Env: MEMORYSYNC_SERVER_DB.",
    )
    serve.add_argument(
        "--workers",
        type=int,
        default=int(env("MEMORYSYNC_SERVER_WORKERS", str(DEFAULT_WORKERS))),
        metavar="N",
        help="serve from N processes (PostgreSQL only: a SQLite file has one writer). "
        "Env: MEMORYSYNC_SERVER_WORKERS.",
    )
    serve.add_argument(
        "--api-key",
        action="append",
        default=None,
        metavar="KEY[=TENANT]",
        help=f"accept KEY for TENANT (default tenant {DEFAULT_TENANT!r}); repeat for more keys. Without "
        "any, a development key is created once and kept in --db. "
        "Env: MEMORYSYNC_SERVER_API_KEYS or MEMORYSYNC_SERVER_API_KEY (comma-separated).",
    )
    serve.add_argument(
        "--eval-key",
        action="append",
        default=None,
        metavar="KEY",
        help="accept KEY as an evaluation key (tenant 'default'). Env: MEMORYSYNC_SERVER_EVAL_KEYS.",
    )
    serve.add_argument(
        "--max-body-bytes",
        type=int,
        default=int(env("MEMORYSYNC_SERVER_MAX_BODY_BYTES", str(DEFAULT_MAX_BODY_BYTES))),
        metavar="N",
        help="refuse request bodies larger than N bytes with 413 (16 MiB: the largest body "
        "openapi.yaml's limits allow). Env: MEMORYSYNC_SERVER_MAX_BODY_BYTES.",
    )
    serve.add_argument(
        "--body-timeout",
        type=_seconds,
        default=env("MEMORYSYNC_SERVER_BODY_TIMEOUT", str(DEFAULT_BODY_TIMEOUT)),
        metavar="SECONDS",
        help="answer 408 and close the connection when a request body makes no progress for this long. "
        "Env: MEMORYSYNC_SERVER_BODY_TIMEOUT.",
    )
    serve.add_argument(
        "--reset-dev-key",
        action="store_true",
        help="replace the development key stored in --db with a new one (only without --api-key)",
    )
    serve.add_argument(
        "--search",
        choices=SEARCH_MODES,
        default=env("MEMORYSYNC_SERVER_SEARCH", DEFAULT_SEARCH),
        help="how facts are ranked ('lexical' is the original word-based search, which needs no model). "
        "Env: MEMORYSYNC_SERVER_SEARCH.",
    )
    serve.add_argument(
        "--recall-chars",
        type=_positive,
        default=int(env("MEMORYSYNC_SERVER_RECALL_CHARS", str(DEFAULT_RECALL_CHARS))),
        metavar="N",
        help=f"the recall block's size in characters per end user ({DEFAULT_RECALL_CHARS}): the memories "
        "that add the most fill it. Env: MEMORYSYNC_SERVER_RECALL_CHARS.",
    )
    serve.add_argument(
        "--encoder",
        choices=ENCODER_SETTINGS,
        default=env("MEMORYSYNC_SERVER_ENCODER", DEFAULT_ENCODER),
        help="which graph of the search model encodes: 'auto' times the int8-compute and the published "
        "graph (and thread settings) on this machine at the first start and keeps the fastest whose "
        "vectors agree, remembered beside --db; 'int8' or 'published' skip the timing. "
        "Env: MEMORYSYNC_SERVER_ENCODER.",
    )
    serve.add_argument(
        "--log-level",
        choices=LOG_LEVELS,
        type=str.lower,
        default=env("MEMORYSYNC_SERVER_LOG_LEVEL", DEFAULT_LOG_LEVEL),
        help="how much the server logs (one line per request at 'info'). Env: MEMORYSYNC_SERVER_LOG_LEVEL.",
    )
    serve.add_argument(
        "--log-format",
        choices=LOG_FORMATS,
        default=env("MEMORYSYNC_SERVER_LOG_FORMAT", DEFAULT_LOG_FORMAT),
        help="'json': every log line one JSON object on stdout (a request's: request_id, tenant, route, "
        "method, status, duration_ms; never memory text or keys), the start-up banner on stderr. "
        "Env: MEMORYSYNC_SERVER_LOG_FORMAT.",
    )
    serve.add_argument(
        "--metrics",
        choices=METRICS_MODES,
        default=env("MEMORYSYNC_SERVER_METRICS", DEFAULT_METRICS),
        help="who may read GET /metrics (Prometheus text format): 'key' any API key this server "
        "accepts, as the inspector's data; 'open' anyone (a scraper on a private network); 'off' nobody. "
        "Env: MEMORYSYNC_SERVER_METRICS.",
    )
    return parser


def _refuse(problem: str) -> int:
    print(f"memorysync-server: {problem}", file=sys.stderr)
    return 2


def _split(value: str | None) -> list[str]:
    return [part.strip() for part in (value or "").split(",") if part.strip()]


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.error(
            "give a COMMAND: memorysync-server serve (memorysync-server serve --help lists its options)"
        )
    keys = KeyRing()
    specs = args.api_key or _split(
        os.environ.get("MEMORYSYNC_SERVER_API_KEYS") or os.environ.get("MEMORYSYNC_SERVER_API_KEY")
    )
    evals = args.eval_key or _split(os.environ.get("MEMORYSYNC_SERVER_EVAL_KEYS"))
    try:
        for spec in specs:
            key, _, tenant = spec.partition("=")
            keys.add(key.strip(), tenant.strip() or DEFAULT_TENANT)
        for key in evals:
            keys.add(key, evaluation=True)
    except ValueError as error:
        return _refuse(str(error))
    if specs and args.reset_dev_key:
        return _refuse(
            "--reset-dev-key replaces the development key, which is used only "
            "when no --api-key is given; drop one of the two."
        )
    if args.workers != 1 and (args.workers < 1 or not is_postgres(args.db)):
        return _refuse(
            "--workers N needs N >= 1 and a PostgreSQL --db (postgresql://...); "
            "a SQLite file is served by one process."
        )
    # Before anything is printed, created or keyed: a mistake costs one sentence, not a database.
    problem = (
        preflight.postgres_problem(str(args.db))
        if is_postgres(args.db)
        else preflight.sqlite_path_problem(args.db)
    ) or preflight.port_problem(args.host, args.port)
    if problem:
        return _refuse(problem)
    where = str(args.db).split("@")[-1]  # never print a password
    try:
        listener = _listen(args.host, args.port)
    except OSError as error:  # taken between the check above and now
        return _refuse(
            f"cannot listen on {args.host}:{args.port} ({error.strerror}); check --host and --port."
        )
    base_url = _base_url(args.host, listener.getsockname()[1])

    import uvicorn

    with listener:
        if args.workers == 1:
            return _serve_one(args, keys, specs, base_url, where, uvicorn, listener)
        return _serve_workers(args, keys, specs, base_url, where, uvicorn, listener)


def _listen(host: str, port: int) -> socket.socket:
    """The listening socket, bound here rather than by uvicorn so that ``--port 0`` (a free port
    chosen by the kernel) is known before the banner prints the URL."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto=IPPROTO_TCP: asyncio sets TCP_NODELAY only on accepted sockets whose proto says TCP;
    # without it every answer waits ~40 ms for the client's delayed ACK.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)  # uvicorn's default backlog
        sock.set_inheritable(True)  # --workers: the worker processes accept on it
    except OSError:
        sock.close()
        raise
    return sock


def _base_url(host: str, port: int) -> str:
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else "::1" if host == "::" else host
    return f"http://[{shown}]:{port}" if ":" in shown else f"http://{shown}:{port}"


def _announce(
    args: argparse.Namespace, keys: KeyRing, specs: list[str], settings: Any, base_url: str, where: str
) -> None:
    """The banner; without --api-key, the development key kept in the database (created once).
    On stderr with --log-format json: stdout is then the log, one JSON object a line, and holds no key."""
    from .devkey import dev_key

    out = sys.stderr if args.log_format == "json" else sys.stdout

    if not specs:
        key, created = dev_key(settings, reset=args.reset_dev_key)
        keys.add(key, DEFAULT_TENANT)
        how = "created a new" if created else "reusing the"
        print(
            f"memorysync-server: no --api-key given; {how} development key for tenant {DEFAULT_TENANT!r},\n"
            f"  kept in {where} (a new one: --reset-dev-key).\n"
            f"  base URL:  {base_url}\n  API key:   {key}\n"
            f"  inspector: {base_url}/  (open it and paste the API key)\n  API docs:  {base_url}/docs\n\n"
            f"Use it with:\n  export MEMORYSYNC_BASE_URL={base_url}\n  export MEMORYSYNC_API_KEY={key}\n",
            file=out,
            flush=True,
        )
    else:
        print(
            f"memorysync-server: serving {where} on {base_url} ({len(keys)} key(s)); "
            f"inspector at {base_url}/, API docs at {base_url}/docs",
            file=out,
            flush=True,
        )


def _serve_one(
    args: argparse.Namespace,
    keys: KeyRing,
    specs: list[str],
    base_url: str,
    where: str,
    uvicorn: Any,
    listener: socket.socket,
) -> int:
    from .app import create_app
    from .model import single_threaded_blas

    single_threaded_blas()
    try:
        app = create_app(
            args.db,
            keys=keys,
            max_body_bytes=args.max_body_bytes,
            body_timeout=args.body_timeout,
            metrics=args.metrics,
            search=args.search,
            encoder=args.encoder,
            recall_chars=args.recall_chars,
        )
    except ValueError as error:
        return _refuse(str(error))
    try:
        config = uvicorn.Config(app, **_uvicorn_options(args))  # sets up logging: before anything logs
        _announce(args, keys, specs, app.services.store.settings, base_url, where)
        _announce_encoder(app.services.search.embedder, args.log_format)
        server = uvicorn.Server(config)
        server.run(sockets=[listener])
    finally:
        app.services.close()
    return 0 if server.started else 1


def _serve_workers(
    args: argparse.Namespace,
    keys: KeyRing,
    specs: list[str],
    base_url: str,
    where: str,
    uvicorn: Any,
    listener: socket.socket,
) -> int:
    """The parent of ``--workers N`` only supervises and never builds an app (no model loads in
    it while the workers start on the same cores). It opens the database only when there is
    something to do before the workers start: a migration (run once, not raced by N workers) or
    the development key to read; with --api-key on a current schema, one query says so."""
    from .storage import open_storage, postgres_schema_current

    if specs and postgres_schema_current(str(args.db)):
        _announce(args, keys, specs, None, base_url, where)
    else:
        try:
            store = open_storage(args.db)
        except ValueError as error:
            return _refuse(str(error))
        try:
            _announce(args, keys, specs, store.settings, base_url, where)
        finally:
            store.close()
    # Each worker process builds its own app from this configuration (uvicorn spawns them).
    os.environ[_WORKER_CONFIG] = json.dumps(
        {
            "db": str(args.db),
            "keys": keys.export(),
            "max_body_bytes": args.max_body_bytes,
            "body_timeout": args.body_timeout,
            "metrics": args.metrics,
            "search": args.search,
            "encoder": args.encoder,
            "recall_chars": args.recall_chars,
        }
    )
    config = uvicorn.Config(
        "memorysync_server.cli:worker_app", factory=True, workers=args.workers, **_uvicorn_options(args)
    )
    from uvicorn.supervisors import Multiprocess

    # GET /metrics adds up every worker's figures: each writes them to files in one folder, named
    # before the workers start (prometheus-client reads it when a worker first imports it).
    metrics_dir = None if os.environ.get(METRICS_DIR_ENV) else tempfile.mkdtemp(prefix="memorysync-metrics-")
    if metrics_dir is not None:
        os.environ[METRICS_DIR_ENV] = metrics_dir
    try:
        # Older uvicorn releases' supervisor takes the target each worker runs; newer ones build it.
        supervisor: Any = Multiprocess
        if "target" in inspect.signature(supervisor).parameters:
            supervisor(config, target=uvicorn.Server(config).run, sockets=[listener]).run()
        else:
            supervisor(config, sockets=[listener]).run()
    finally:
        if metrics_dir is not None:
            shutil.rmtree(metrics_dir, ignore_errors=True)
    return 0


def _uvicorn_options(args: argparse.Namespace) -> dict[str, Any]:
    options: dict[str, Any] = {
        "host": args.host,
        "port": args.port,
        "log_level": args.log_level,
        "lifespan": "off",
    }
    config = log_config(args.log_format, args.log_level)
    if config is not None:  # uvicorn's own text lines otherwise (its default configuration)
        options.update(log_config=config, access_log=False)
    return options


_WORKER_CONFIG = "MEMORYSYNC_SERVER__WORKER_CONFIG"


def _announce_encoder(embedder: Any, log_format: str = DEFAULT_LOG_FORMAT) -> None:
    """Print (log, with --log-format json) which graph encodes and its timings once the model has
    loaded (in the background: the banner above is printed before it is known)."""
    settled = getattr(embedder, "settled", None)
    if settled is None:
        return  # a search mode with no model

    def announce() -> None:
        from .model.loading import encoder_choice

        settled()
        choice = encoder_choice(embedder)
        if choice is None:
            return
        if log_format == "json":
            logging.getLogger("memorysync_server").info("search model loaded; encoder: %s", choice.summary())
        else:
            print(f"memorysync-server: search model loaded; encoder: {choice.summary()}", flush=True)

    threading.Thread(target=announce, name="memorysync-announce", daemon=True).start()


def worker_app() -> object:
    """The app of one ``--workers`` process, from the configuration the parent left in the env."""
    from .app import create_app
    from .model import single_threaded_blas

    single_threaded_blas()  # as in a single-process serve: this process is the server's own
    config = json.loads(os.environ[_WORKER_CONFIG])
    return create_app(
        config["db"],
        keys=KeyRing.imported(config["keys"]),
        max_body_bytes=config["max_body_bytes"],
        body_timeout=config["body_timeout"],
        metrics=config["metrics"],
        search=config["search"],
        encoder=config.get("encoder", "auto"),
        recall_chars=config.get("recall_chars", DEFAULT_RECALL_CHARS),
        # N workers start side by side on the same cores: each loads its model once it is
        # serving (first request), not while the others are still starting.
        defer_model=True,
    )


if __name__ == "__main__":
    raise SystemExit(main())
