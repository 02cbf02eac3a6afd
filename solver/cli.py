"""The ``treasure`` command: one click group, each game's commands loaded only when used.

Subcommands live in their own modules (``solver.sabords.cli`` ...) and are imported lazily so
that ``treasure sabords hold`` does not pay for OR-Tools or networkx at start-up.
"""

from __future__ import annotations

import os
import sys

import click

from solver.errors import InputError, SolveError
from solver.games import PARTS, find

# the registry's parts that have a command, by name (solver.games)
SUBCOMMANDS = {p.name: p for p in PARTS if p.command}


class LazyGroup(click.Group):
    """A click group whose subcommands are the registry's parts, imported on first use; a
    part's aliases (any case) reach it too."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(SUBCOMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        part = find(cmd_name)
        if part is None or not part.command:
            return None
        return part.hook("command")

    def resolve_command(self, ctx: click.Context, args: list[str]):
        """Usage lines name a part by its one name, whichever alias was typed."""
        _, command, rest = super().resolve_command(ctx, args)
        part = find(args[0])
        return (part.name if part else None), command, rest

    def invoke(self, ctx: click.Context):
        """Run the command; a reader that stops early (``| head``) ends it quietly."""
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            _silence_stdout()
            raise click.exceptions.Exit(0) from None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, SUBCOMMANDS[name].summary + (
            f" (also: {', '.join(SUBCOMMANDS[name].aliases)})" if SUBCOMMANDS[name].aliases
            else "")) for name in sorted(SUBCOMMANDS)]
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
    except SolveError as err:
        click.echo(f"error: {err}", err=True)
        sys.exit(1)
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
