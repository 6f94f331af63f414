"""``memorysync-server serve --host --port --db --workers --api-key KEY[=TENANT] --search MODE ...`` (env: ``MEMORYSYNC_SERVER_*``)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from .http.auth import KeyRing
from .http.request_checks import DEFAULT_MAX_BODY_BYTES
from .launcher import DEFAULT_TENANT
from .retrieval import DEFAULT_SEARCH, SEARCH_MODES


def _parser() -> argparse.ArgumentParser:
    env = os.environ.get
    parser = argparse.ArgumentParser(prog="memorysync-server", description="A local MemorySync server.")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve the MemorySync API over HTTP")
    serve.add_argument("--host", default=env("MEMORYSYNC_SERVER_HOST", "127.0.0.1"))
    serve.add_argument("--port", type=int, default=int(env("MEMORYSYNC_SERVER_PORT", "8787")))
    serve.add_argument(
        "--db",
        default=env("MEMORYSYNC_SERVER_DB", "./memorysync.db"),
        help="a SQLite file, or postgresql://user:password@host/database (pip install "
        "'memorysync-kit[postgres]'). Env: MEMORYSYNC_SERVER_DB.",
    )
    serve.add_argument(
        "--workers",
        type=int,
        default=int(env("MEMORYSYNC_SERVER_WORKERS", "1")),
        metavar="N",
        help="serve from N processes (PostgreSQL only: a SQLite file has one writer). "
        "Env: MEMORYSYNC_SERVER_WORKERS.",
    )
    serve.add_argument(
        "--api-key",
        action="append",
        default=None,
        metavar="KEY[=TENANT]",
        help=f"accept KEY for TENANT (default tenant {DEFAULT_TENANT!r}); repeat for more keys. "
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
        help="refuse request bodies larger than N bytes with 413 (default 16 MiB: the largest body "
        "openapi.yaml's limits allow). Env: MEMORYSYNC_SERVER_MAX_BODY_BYTES.",
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
        help=f"how facts are ranked (default {DEFAULT_SEARCH!r}; 'lexical' is the original word-based "
        "search, which needs no model). Env: MEMORYSYNC_SERVER_SEARCH.",
    )
    serve.add_argument("--log-level", default=env("MEMORYSYNC_SERVER_LOG_LEVEL", "info"))
    return parser


def _split(value: str | None) -> list[str]:
    return [part.strip() for part in (value or "").split(",") if part.strip()]


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
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
        print(f"memorysync-server: {error}", file=sys.stderr)
        return 2
    if specs and args.reset_dev_key:
        print(
            "memorysync-server: --reset-dev-key replaces the development key, which is used only "
            "when no --api-key is given; drop one of the two.",
            file=sys.stderr,
        )
        return 2
    shown_host = "127.0.0.1" if args.host in ("0.0.0.0", "::", "") else args.host
    base_url = f"http://{shown_host}:{args.port}"

    import uvicorn

    from .app import create_app
    from .retrieval import single_threaded_blas

    single_threaded_blas()
    from .devkey import dev_key
    from .storage import is_postgres

    if args.workers != 1 and (args.workers < 1 or not is_postgres(args.db)):
        print(
            "memorysync-server: --workers N needs N >= 1 and a PostgreSQL --db (postgresql://...); "
            "a SQLite file is served by one process.",
            file=sys.stderr,
        )
        return 2
    where = str(args.db).split("@")[-1]  # never print a password
    try:
        app = create_app(args.db, keys=keys, max_body_bytes=args.max_body_bytes, search=args.search)
    except ValueError as error:
        print(f"memorysync-server: {error}", file=sys.stderr)
        return 2
    try:
        if not specs:
            key, created = dev_key(app.services.store.settings, reset=args.reset_dev_key)
            keys.add(key, DEFAULT_TENANT)
            how = "created a new" if created else "reusing the"
            print(
                f"memorysync-server: no --api-key given; {how} development key for tenant {DEFAULT_TENANT!r},\n"
                f"  kept in {where} (a new one: --reset-dev-key).\n"
                f"  base URL:  {base_url}\n  API key:   {key}\n"
                f"  inspector: {base_url}/  (open it and paste the API key)\n  API docs:  {base_url}/docs\n\n"
                f"Use it with:\n  export MEMORYSYNC_BASE_URL={base_url}\n  export MEMORYSYNC_API_KEY={key}\n",
                flush=True,
            )
        else:
            print(
                f"memorysync-server: serving {where} on {base_url} ({len(keys)} key(s)); "
                f"inspector at {base_url}/, API docs at {base_url}/docs",
                flush=True,
            )
        if args.workers == 1:
            uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, lifespan="off")
            return 0
        # Each worker process builds its own app from this configuration (uvicorn spawns them).
        os.environ[_WORKER_CONFIG] = json.dumps(
            {
                "db": str(args.db),
                "keys": keys.export(),
                "max_body_bytes": args.max_body_bytes,
                "search": args.search,
            }
        )
        uvicorn.run(
            "memorysync_server.cli:worker_app",
            factory=True,
            workers=args.workers,
            host=args.host,
            port=args.port,
            log_level=args.log_level,
            lifespan="off",
        )
    finally:
        app.services.close()
    return 0


_WORKER_CONFIG = "MEMORYSYNC_SERVER__WORKER_CONFIG"


def worker_app() -> object:
    """The app of one ``--workers`` process, from the configuration the parent left in the env."""
    from .app import create_app

    config = json.loads(os.environ[_WORKER_CONFIG])
    return create_app(
        config["db"],
        keys=KeyRing.imported(config["keys"]),
        max_body_bytes=config["max_body_bytes"],
        search=config["search"],
    )


if __name__ == "__main__":
    raise SystemExit(main())
