"""The `citechunk` command: a thin layer over the public Python API.

Each command parses options, builds a `Config` (defaults < --config FILE < flags), calls one API
function and renders its result. `CitechunkError` becomes a message on stderr and a non-zero
exit (its `exit_code`: 2 for usage/configuration, 1 for failed work). A reader that closes
stdout early (`| head`) is not an error (`console.closed_pipe_ok`). A command stopped by a
signal exits as shells and schedulers expect, 128 + the signal's number: Ctrl-C (SIGINT) 130,
SIGTERM 143 (`ingest` turns SIGTERM into `SystemExit(143)` so its run.json says ``aborted``).
"""

from __future__ import annotations

import logging
import signal
from dataclasses import dataclass, field
from typing import Any

import click

from .. import __version__
from ..config import Config, load_config
from ..errors import CitechunkError
from ..logsetup import setup_logging
from .console import closed_pipe_ok
from .options import Overrides, config_flags

log = logging.getLogger("citechunk")

EXIT_SIGINT = 128 + signal.SIGINT  # 130: stopped by Ctrl-C


@dataclass
class State:
    config_path: str | None
    overrides: Overrides = field(default_factory=dict)  # the group's flags (--log-format)

    def config(self, overrides: Overrides | None = None) -> Config:
        """Defaults < --config FILE < the group's flags < the command's flags."""
        layered = {s: dict(v) for s, v in self.overrides.items()}
        for section, values in (overrides or {}).items():
            layered.setdefault(section, {}).update(values)
        return load_config(self.config_path, layered)


class CitechunkGroup(click.Group):
    def invoke(self, ctx: click.Context) -> Any:
        try:
            with closed_pipe_ok():  # `citechunk inspect OUT | head`: exit 0
                return super().invoke(ctx)
        except CitechunkError as exc:
            click.echo(f"Error: {exc}", err=True)
            raise click.exceptions.Exit(exc.exit_code) from None
        except KeyboardInterrupt:  # click alone would exit 1, the code of failed work
            click.echo("\nAborted: interrupted (SIGINT)", err=True)
            raise click.exceptions.Exit(EXIT_SIGINT) from None


@click.group(cls=CitechunkGroup)
@click.version_option(__version__, prog_name="citechunk")
@click.option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="TOML file layered over the defaults (see config/default.toml).",
)
@click.option("-v", "--verbose", count=True, help="More log output (-vv for debug).")
@config_flags("run.log_format")
@click.pass_context
def main(ctx: click.Context, config_path: str | None, verbose: int, overrides: Overrides) -> None:
    """Turn PDFs into citable, heading-first chunks for retrieval."""
    state = State(config_path, overrides)
    setup_logging(verbose, state.config().run.log_format)
    ctx.obj = state


pass_state = click.make_pass_decorator(State)

from . import commands  # noqa: E402,F401  (registers the commands on `main`)
