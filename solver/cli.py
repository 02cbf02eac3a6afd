"""The ``treasure`` command: one click group, each game's commands loaded only when used.

Subcommands live in their own modules (``solver.sabords.cli`` ...) and are imported lazily so
that ``treasure sabords hold`` does not pay for OR-Tools or networkx at start-up.
"""

from __future__ import annotations

import importlib
import os
import sys

import click

from solver.util import InputError

# name -> "module:attribute" of a click command or group
SUBCOMMANDS = {
    "sabords": ("solver.sabords.cli:sabords", "Mille Sabords: score, hold, value."),
    "armada": ("solver.armada.cli:armada", "Gold Armada: hold, value, whole-game solve."),
    "dragon": ("solver.dragon.cli:dragon", "Die Dracheninsel: board, layout, route, patrol."),
    "cache": ("solver.cache_cli:cache", "The disk cache of solved tables: show, clear."),
    "check": ("solver.rules.cli:check", "The rules verifier: editions, invariants, certificates."),
    "serve": ("solver.web.serve:serve", "The table companion: web pages and a JSON API."),
}


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(SUBCOMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in SUBCOMMANDS:
            return None
        target, _ = SUBCOMMANDS[cmd_name]
        module_name, attr = target.split(":")
        return getattr(importlib.import_module(module_name), attr)

    def invoke(self, ctx: click.Context):
        """Run the command; a reader that stops early (``| head``) ends it quietly."""
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            _silence_stdout()
            raise click.exceptions.Exit(0) from None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, SUBCOMMANDS[name][1]) for name in sorted(SUBCOMMANDS)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="treasure-solver")
def cli() -> None:
    """Exact solvers and a rules verifier for three pirate games.

    \b
    Example:
      treasure sabords hold --card captain CCCDSSXM
    """


def _silence_stdout() -> None:
    """Point standard output at the null device so that the final flush cannot fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    finally:
        os.close(devnull)


def main(argv: list[str] | None = None) -> None:
    """Entry point: bad input becomes one line on stderr and exit status 2; a closed pipe
    (``treasure ... | head``) ends quietly with status 0."""
    try:
        cli.main(args=argv, prog_name="treasure", standalone_mode=False)
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        sys.exit(0)
    except InputError as err:
        click.echo(f"error: {err}", err=True)
        sys.exit(2)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(1)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.UsageError as err:
        hint = f" (see '{err.ctx.command_path} --help')" if err.ctx is not None else ""
        click.echo(f"error: {err.format_message()}{hint}", err=True)
        sys.exit(err.exit_code)
    except click.ClickException as err:
        err.show()
        sys.exit(err.exit_code)


if __name__ == "__main__":
    main()
