"""What every ``xlashape`` command shares: exit statuses, the one-line error,
the argument parser that returns instead of exiting, argument types, and the
SHAPE/``--padded`` options."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from typing import NoReturn

from ..model.layout import Layout
from ..model.primitive_type import PaddingValue
from ..shapes.shape import Shape
from ..shapes.shape_text import parse_array_shape_string

PROG = "xlashape"
EXIT_OK, EXIT_FAILURE, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
# As a shell reports a command ended by SIGPIPE (128 + 13): its reader left.
EXIT_BROKEN_PIPE = 141

# --padding-value: the layout's PaddingValue, and how `show` draws a padding
# cell ("0" is the spec's picture). Element names are lowercase letters, so
# none of these can be mistaken for an element.
PADDING = {
    "zero": (PaddingValue.ZERO_PAD, "0"),
    "one": (PaddingValue.ONE_PAD, "1"),
    "lowest": (PaddingValue.LOWEST_PAD, "L"),
    "highest": (PaddingValue.HIGHEST_PAD, "H"),
    "unknown": (PaddingValue.UNKNOWN_PAD, "?"),
}
DEFAULT_PADDING = "zero"


class CommandError(Exception):
    """A user error: :func:`main` prints it on one line and returns ``code``."""

    def __init__(self, message: str, code: int = EXIT_FAILURE) -> None:
        super().__init__(message)
        self.code = code


class Exit(Exception):
    """argparse finished early (``--help``, ``--version``) with ``code``."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class Parser(argparse.ArgumentParser):
    """An ArgumentParser that returns through :func:`main` instead of
    exiting, with errors on one line."""

    def error(self, message: str) -> NoReturn:
        raise CommandError(f"{message} (see '{self.prog} --help')", EXIT_USAGE)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            sys.stderr.write(message)
        raise Exit(status)


# -- argument types ----------------------------------------------------------
def _shape_text(text: str) -> Shape:
    try:
        return parse_array_shape_string(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _widths(text: str) -> tuple[int, ...]:
    if not re.fullmatch(r"\s*\d+\s*(,\s*\d+\s*)*", text, re.ASCII):
        raise argparse.ArgumentTypeError(
            f"expected comma-separated widths such as 3,5, got {text!r}"
        )
    return tuple(int(w) for w in text.split(","))


# -- the parser --------------------------------------------------------------
def add_command(
    subparsers: argparse._SubParsersAction[Parser],
    name: str,
    summary: str,
    epilog: str,
    handler: Callable[[argparse.Namespace], int],
) -> Parser:
    """A subparser for the command ``name`` that runs ``handler(args)``."""
    parser = subparsers.add_parser(
        name,
        help=summary,
        description=summary,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.set_defaults(handler=handler, parser=parser)
    return parser


def add_shape_arguments(parser: argparse.ArgumentParser, *, padding_value: bool = True) -> None:
    """SHAPE, ``--padded`` and (unless ``padding_value`` is false: it changes
    no index, only what ``show`` draws) ``--padding-value``."""
    parser.add_argument(
        "shape",
        metavar="SHAPE",
        type=_shape_text,
        help='the shape as text, such as "f32[2,3]{0,1}" (quote it for the shell)',
    )
    parser.add_argument(
        "--padded",
        metavar="W,...",
        type=_widths,
        help="pad each dimension to this width (one width per dimension)",
    )
    if padding_value:
        parser.add_argument(
            "--padding-value",
            choices=PADDING,
            help=f"what fills the padding (default {DEFAULT_PADDING}; needs --padded)",
        )


def shape_from(args: argparse.Namespace) -> Shape:
    """SHAPE with the layout's padding from ``--padded``/``--padding-value``."""
    shape: Shape = args.shape
    padding_value = getattr(args, "padding_value", None)
    if args.padded is None:
        if padding_value is not None:
            raise CommandError(
                "--padding-value needs --padded: an unpadded layout has no padding", EXIT_USAGE
            )
        return shape
    layout = Layout(
        shape.layout.minor_to_major, args.padded, PADDING[padding_value or DEFAULT_PADDING][0]
    )
    try:
        return Shape(shape.element_type, shape.dimensions, layout)
    except (ValueError, OverflowError) as e:
        widths = ",".join(map(str, args.padded))
        raise CommandError(f"--padded {widths} does not fit {shape}: {e}", EXIT_USAGE) from None
