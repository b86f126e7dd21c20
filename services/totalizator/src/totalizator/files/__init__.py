"""Published files (T-8): the draw file, the bet file, and the settlement report the verifier prints."""

from totalizator.files.bets_file import bets_file_name, read_bets, write_bets
from totalizator.files.draw_file import draw_file_name, draw_from_json, draw_to_json, read_draw, write_draw
from totalizator.files.errors import PublishedFileError
from totalizator.files.report import settlement_to_json

__all__ = [
    "PublishedFileError",
    "bets_file_name",
    "draw_file_name",
    "draw_from_json",
    "draw_to_json",
    "read_bets",
    "read_draw",
    "settlement_to_json",
    "write_bets",
    "write_draw",
]
