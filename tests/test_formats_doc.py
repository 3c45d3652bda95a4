"""docs/formats.md against the code: its options table is every game's option list, its
zones are the layouts' zones, its move types and example are what moves.py reads, and
the fields it promises appear in the objects the commands print."""

import json
import re
from pathlib import Path

from click.testing import CliRunner

from solver.cli import main
from solver.moves import MOVE_TYPES, Move
from solver.registry import games

DOC = (Path(__file__).resolve().parents[1] / "docs" / "formats.md").read_text(encoding="utf-8")


def table_rows(heading: str) -> list[list[str]]:
    section = DOC.split(heading, 1)[1]
    rows = []
    for line in section.splitlines()[1:]:
        if line.startswith("## "):
            break
        if line.startswith("| ") and not line.startswith("| ---"):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows[1:]   # the header row


def test_the_options_table_is_every_games_option_list():
    documented = {(row[0], row[1].strip("`")) for row in table_rows("## Options") if row[1] != "(none)"}
    actual = {(g.name, o.name) for g in games().values() for o in g.options}
    assert documented == actual
    for row in table_rows("## Options"):
        if row[1] == "(none)":
            assert not games()[row[0]].options
            continue
        option = games()[row[0]].option(row[1].strip("`"))
        assert row[3].strip("`") == ("null" if option.default is None else str(option.default).lower())


def test_the_zones_table_is_the_layouts_zones():
    for game, zones in table_rows("## A deal"):
        named = set(re.findall(r"`(\w+)`", zones))
        layout = games()[game].layout
        assert named <= set(layout.zones), game
        assert set(layout.card_zones) - {"waste", "foundations"} <= named, game


def test_the_move_types_and_the_example_are_what_moves_reads():
    documented = [row[0].strip("`") for row in table_rows("## A move")]
    assert documented == list(MOVE_TYPES)
    example = re.search(r'```json\n(\{"type": "move".*?\})\n```', DOC).group(1)
    assert Move.from_json(json.loads(example)).to_json() == json.loads(example)


def test_the_fields_it_promises_are_printed():
    runner = CliRunner()
    result = json.loads(runner.invoke(main, ["solve", "golf", "--seed", "2", "--json"]).stdout)
    for field in ("game", "options", "seed", "verdict", "moves", "nodes", "seconds", "wall_seconds", "deal"):
        assert field in result, field
    hint = json.loads(runner.invoke(main, ["hint", "golf", "--seed", "2", "--json"]).stdout)
    for field in ("played", "next", "line_length", "raw_length", "deal", "moves"):
        assert field in hint, field
    for field in ("played", "next", "line_length", "raw_length", "wall_seconds", "passes_used", "seed_type"):
        assert f"`{field}`" in DOC, field
