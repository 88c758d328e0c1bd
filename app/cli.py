"""The `motable` command: serve, migrate, verify a finished match, simulate bot matches."""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import sys
import threading
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

from app.config import Settings
from app.roomids import is_room_id


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    from app.db import upgrade
    from app.main import create_app
    from app.serving import tune_gc, uvicorn_options

    # The command line's word goes over the environment's; the app is built from these settings.
    given = {"bind_host": args.host, "public_url": args.public_url or None}
    settings = Settings(**{name: value for name, value in given.items() if value is not None})
    upgrade(settings.database_url)
    app = create_app(settings)
    tune_gc(settings)
    address = open_address(settings.public_url, args.host, args.port)

    class Server(uvicorn.Server):
        """uvicorn's server, which also says the address to open once it listens (and opens it)."""

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if self.started:
                print(f"Motable is ready: open {address} in your browser", flush=True)
                if args.open:
                    # Off the event loop: finding and starting a browser may take a moment.
                    threading.Thread(target=open_in_browser, args=(address,), daemon=True).start()

    server = Server(uvicorn.Config(app, **uvicorn_options(settings, args.host, args.port, args.log_level)))
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    # As uvicorn.run: a server that never listened (the port taken, say) is a failed start.
    return 0 if server.started else STARTUP_FAILURE


# What uvicorn exits with when the server could not start.
STARTUP_FAILURE = 3
# Bound to these, the server is reached from this computer at http://localhost: the address where
# passkeys work (an IP address names no site for them) and where the browser keeps this site's games.
LOCALHOST_REACHES = {"127.0.0.1", "::1", "localhost", "0.0.0.0", "::", ""}


def open_address(public_url: str | None, host: str, port: int) -> str:
    """The address `motable serve` tells people to open: the public URL when there is one, else
    http://localhost:PORT when that reaches the server (bound to 127.0.0.1, ::1 or every address),
    else the address it is bound to."""
    if public_url:
        return public_url
    if host.strip("[]") in LOCALHOST_REACHES:
        return f"http://localhost:{port}"
    name = f"[{host.strip('[]')}]" if ":" in host else host
    return f"http://{name}:{port}"


def open_in_browser(url: str, env: Mapping[str, str] | None = None, platform: str | None = None) -> bool:
    """`motable serve --open` (what `make run` does): the page in this computer's browser, when there
    is a desktop to show it on. Never a text browser in the server's terminal (Python's webbrowser picks
    lynx or w3m when it finds nothing else, and waits for it), never an error: without a desktop (a
    server, ssh, a container) it opens nothing and the printed address is there to open by hand.
    Returns whether a browser was asked to open it. It may wait for the browser to start: `serve` runs
    it on a thread of its own."""
    import webbrowser

    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    if env.get("SSH_CONNECTION") or env.get("SSH_TTY"):
        return False  # the person is at another computer: this one's screen is not theirs
    desktop = env.get("DISPLAY") or env.get("WAYLAND_DISPLAY")
    if (platform.startswith("linux") or "bsd" in platform) and not desktop:
        return False
    try:
        browser = webbrowser.get()
    except webbrowser.Error:
        return False
    # Browsers that take over the terminal: GenericBrowser (lynx, w3m, links, www-browser) runs its
    # command and waits; Elinks likewise. BackgroundBrowser (xdg-open) and the others start a window.
    console = (webbrowser.GenericBrowser, getattr(webbrowser, "Elinks", webbrowser.GenericBrowser))
    if type(browser) in console:
        return False
    try:
        return bool(browser.open(url))
    except Exception:  # a browser that fails to start: the printed address is still there
        return False


def migrate(_args: argparse.Namespace) -> int:
    from app.db import upgrade

    upgrade(Settings.from_env().database_url)
    print("database is up to date")
    return 0


def prune(args: argparse.Namespace) -> int:
    from app.db import Database
    from app.retention import prune as prune_once

    settings = Settings.from_env()
    db = Database(settings.database_url)
    try:
        done = prune_once(db, settings, dry_run=args.dry_run)
    finally:
        db.dispose()
    print(("would delete or archive: " if args.dry_run else "deleted or archived: ") + str(done))
    return 0


def verify(args: argparse.Namespace) -> int:
    if args.server:
        return _verify_remote(args.server.rstrip("/"), args.room_id)
    from app.db import Database
    from app.services.matches import verify_match

    db = Database(Settings.from_env().database_url)
    try:
        with db.read() as session:
            problems = verify_match(session, args.room_id)
    finally:
        db.dispose()
    for problem in problems:
        print(f"FAIL {problem}")
    if problems:
        return 1
    print(
        f"OK room {args.room_id}: sha256(seed) matches the commitment and the log replays to the stored state"
    )
    return 0


def _verify_remote(server: str, room_id: str) -> int:
    """Anyone can run this: it needs only the public endpoints, not the database."""
    import httpx

    from app.fairness import check_public_log

    try:
        with httpx.Client(base_url=server, timeout=30) as http:
            bodies = [http.get(f"/api/rooms/{room_id}{path}") for path in ("", "/log", "/state")]
    except httpx.HTTPError as error:
        print(f"FAIL could not reach {server}: {error}")
        return 1
    for body in bodies:
        if body.status_code != 200:
            print(f"FAIL {body.request.url} answered {body.status_code}")
            return 1
    problems = check_public_log(*(b.json() for b in bodies))
    for problem in problems:
        print(f"FAIL {problem}")
    if problems:
        return 1
    print(f"OK room {room_id}: sha256(seed) matches the commitment and the public log replays to the result")
    return 0


def simulate(args: argparse.Namespace) -> int:
    from engines.core import get_bots, get_engine

    engine = get_engine(args.game)
    bots = get_bots(args.game)
    if args.bot not in bots:
        print(f"{args.game} has no {args.bot!r} bot; it has {', '.join(bots)}", file=sys.stderr)
        return 2
    options = engine.spec.parse_options({})
    wins: Counter[int] = Counter()
    for game in range(args.games):
        seed = args.seed + game
        state = engine.setup(args.players, seed, options)
        players = [bots[args.bot](engine, seed * 100 + seat) for seat in range(args.players)]
        actions = 0
        while acting := engine.to_act(state):
            seat = min(acting)
            state = engine.apply(state, seat, players[seat].choose(state, seat))
            actions += 1
        result = engine.result(state)
        assert result is not None
        wins.update(result.winners)
        print(f"seed {seed}: winners {result.winners} scores {result.scores} after {actions} actions")
    print("wins per seat: " + ", ".join(f"{seat}: {wins[seat]}" for seat in range(args.players)))
    return 0


def messages(args: argparse.Namespace) -> int:
    """Extract the words to translate, merge them into every catalogue, write the browser's copies."""
    from app import messages as catalogues

    if args.check:
        problems = catalogues.check()
        for problem in problems:
            print(problem)
        return 1 if problems else 0
    for lang in catalogues.update(new=args.new or []):
        print(f"updated locale/{lang}/LC_MESSAGES/messages.po and static/i18n/{lang}.js")
    problems = catalogues.check()
    if problems:
        print(f"{len(problems)} strings to translate or check (motable messages --check lists them)")
    return 0


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="motable", description="Play card games with friends in the browser.")
    commands = root.add_subparsers(dest="command", required=True)

    def command(
        name: str, run: Callable[[argparse.Namespace], int], help_text: str
    ) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text)
        sub.set_defaults(run=run)
        return sub

    sub = command("serve", serve, "apply pending migrations, then serve HTTP and WebSockets")
    sub.add_argument("--host", default="127.0.0.1")
    sub.add_argument("--port", type=int, default=8000)
    sub.add_argument("--log-level", default="info")
    sub.add_argument(
        "--public-url",
        help="the address people open (e.g. https://cards.example.org), used in share links and QR codes; "
        "default: MOTABLE_PUBLIC_URL, else the address each request came to",
    )
    sub.add_argument(
        "--open",
        action="store_true",
        help="open the address in this computer's browser once the server listens (when there is a "
        "desktop to show it on; `make run` does)",
    )

    command("migrate", migrate, "apply pending database migrations")

    sub = command(
        "messages", messages, "update the translation catalogues from the code (docs/translating.md)"
    )
    sub.add_argument("--new", action="append", metavar="LANG", help="start a catalogue for a new language")
    sub.add_argument(
        "--check", action="store_true", help="change nothing; list what is out of date or untranslated"
    )

    sub = command("prune", prune, "delete expired rooms and matches now (see docs/operations.md)")
    sub.add_argument("--dry-run", action="store_true", help="count what would go, change nothing")

    sub = command("verify", verify, "replay a finished match from its revealed seed and check it")
    sub.add_argument("room_id")
    sub.add_argument("--server", help="check through a server's public API (e.g. http://host:8000) instead")

    sub = command("simulate", simulate, "play bot-vs-bot matches and print the results")
    sub.add_argument("game")
    sub.add_argument("--players", type=int, required=True)
    sub.add_argument("--seed", type=int, default=0)
    sub.add_argument("--games", type=int, default=1)
    sub.add_argument("--bot", default="random", help="which bot plays every seat (default: random)")
    return root


def _room_ids_last(argv: list[str]) -> list[str]:
    """`motable verify -McLoWJ80Onq`: a room id may start with `-`, which argparse takes for an option.
    Such ids (exactly a room id's shape, and no option of ours) go after a `--`."""
    if not argv or argv[0] != "verify" or "--" in argv:
        return argv
    ids = [arg for arg in argv[1:] if arg.startswith("-") and is_room_id(arg) and not arg.startswith("--")]
    if not ids:
        return argv
    return [arg for arg in argv if arg not in ids] + ["--", *ids]


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(_room_ids_last(list(sys.argv[1:] if argv is None else argv)))
    status: int = args.run(args)
    return status
