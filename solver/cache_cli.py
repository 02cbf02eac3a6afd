"""``treasure cache``: what the disk cache holds, and clearing it (contract: solver.cache)."""

from __future__ import annotations

import time

import click

from solver.io import dumps_json


def _size(n: int) -> str:
    """Bytes for people: ``58.7 MB``."""
    for unit in ("B", "kB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} GB"


@click.group(invoke_without_command=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def cache(ctx: click.Context, as_json: bool) -> None:
    """Show the disk cache of solved tables: each entry, its size, when last used.

    The folder is $TREASURE_CACHE (default ~/.cache/treasure-solver); its total is kept under
    $TREASURE_CACHE_LIMIT (default 1G) by deleting the least recently used entries.

    \b
    Examples:
      treasure cache
      treasure cache clear
    """
    if ctx.invoked_subcommand is not None:
        return
    from solver.cache import cache_dir, entries, size_limit

    found = entries()
    total = sum(e.size for e in found)
    if as_json:
        click.echo(dumps_json({
            "folder": str(cache_dir()), "limit": size_limit(), "total": total,
            "entries": [{"path": str(e.path), "kind": e.kind, "label": e.label,
                         "size": e.size, "status": e.status} for e in found]}), nl=False)
        return
    click.echo(f"{cache_dir()}: {len(found)} entries, {_size(total)} "
               f"(limit {_size(size_limit())})")
    if not found:
        return
    from solver.text import table

    rows = [[e.kind, e.label, _size(e.size), time.strftime("%Y-%m-%d %H:%M",
             time.localtime(e.used)), e.status] for e in reversed(found)]
    click.echo(table(["game", "table", "size", "last used", "status"], rows, "llrll"), nl=False)


@cache.command()
def clear() -> None:
    """Delete every cached table (they are rebuilt when next needed).

    \b
    Example:
      treasure cache clear
    """
    from solver.cache import cache_dir
    from solver.cache import clear as clear_all

    count, size = clear_all()
    click.echo(f"deleted {count} entries ({_size(size)}) from {cache_dir()}")
