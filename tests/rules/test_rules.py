"""Rules and presets (RULES.md §10, docs/rules-schema.md): every preset's every option, overrides,
the dict round trip and the errors that name the valid choices."""

import ast
import json
import pickle
from pathlib import Path

import pytest
from helpers import ROOT
from rules_tables import PATTERNS, PRESETS, expected_dict

import xueliu
from xueliu import Rules, RulesError


def schema_keys():
    """The keys of docs/rules-schema.md's table, in its order."""
    text = (ROOT / "docs" / "rules-schema.md").read_text(encoding="utf-8")
    keys = []
    for line in text.splitlines():
        if line.startswith("| `"):
            cell = line.split("|")[1]
            keys += [k.strip(" `") for k in cell.split(",")]
    return keys


def test_presets_are_listed_in_order():
    assert Rules.presets() == PRESETS


@pytest.mark.parametrize("preset", PRESETS)
def test_every_option_of_every_preset_is_section_10s(preset):
    assert Rules.preset(preset).to_dict() == expected_dict(preset)


def test_to_dict_has_exactly_the_schema_keys():
    assert list(Rules.preset("chengdu").to_dict()) == schema_keys()
    assert list(Rules.preset("chengdu").fan) == PATTERNS


@pytest.mark.parametrize("preset", PRESETS)
def test_json_round_trip(preset):
    rules = Rules.preset(preset)
    again = Rules.from_dict(json.loads(json.dumps(rules.to_dict())))
    assert again == rules and hash(again) == hash(rules)
    changed = rules.replace(cap_fan=3, exchange="opposite", fan={"golden_hook": 2})
    assert Rules.from_dict(json.loads(json.dumps(changed.to_dict()))) == changed


def test_attributes_read_every_option():
    rules = Rules.preset("yaoji")
    for key, value in rules.to_dict().items():
        assert getattr(rules, "preset_name" if key == "preset" else key) == value
    with pytest.raises(AttributeError, match="has no option 'capfan'|has no option \"capfan\""):
        rules.capfan
    assert set(rules.to_dict()) <= set(dir(rules))


def test_stub_annotates_every_option():
    stub = Path(xueliu.__file__).with_name("_xueliu.pyi").read_text(encoding="utf-8")
    tree = ast.parse(stub)
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Rules")
    annotated = [n.target.id for n in cls.body if isinstance(n, ast.AnnAssign)]
    assert ["preset"] + annotated == schema_keys()


def stub_valid(annotation: ast.expr) -> str:
    """What the engine's error lists as valid for an option the stub annotates so; an integer's
    range only where the stub gives one."""
    if isinstance(annotation, ast.Name):
        return {"bool": "true, false", "int": "an integer"}[annotation.id]
    assert isinstance(annotation, ast.Subscript) and isinstance(annotation.value, ast.Name)
    if annotation.value.id == "Optional":
        inner = stub_valid(annotation.slice)
        return ("null or " if inner.startswith("an integer") else "null, ") + inner
    elements = annotation.slice.elts if isinstance(annotation.slice, ast.Tuple) else [annotation.slice]
    values = [e.value for e in elements if isinstance(e, ast.Constant)]
    if all(isinstance(v, int) for v in values):
        assert values == list(range(values[0], values[-1] + 1)), ast.unparse(annotation)
        return f"an integer {values[0]}-{values[-1]}"
    return ", ".join(f'"{v}"' for v in values)


def test_stub_types_every_option_as_the_engine_checks_it():
    stub = Path(xueliu.__file__).with_name("_xueliu.pyi").read_text(encoding="utf-8")
    cls = next(n for n in ast.parse(stub).body if isinstance(n, ast.ClassDef) and n.name == "Rules")
    for node in cls.body:
        if not isinstance(node, ast.AnnAssign) or not isinstance(node.target, ast.Name) or node.target.id == "fan":
            continue
        with pytest.raises(RulesError) as e:
            Rules.preset("chengdu", **{node.target.id: []})
        valid, expected = str(e.value).split("; valid: ")[1], stub_valid(node.annotation)
        # "int" leaves the range to the engine; every other annotation names all it allows.
        assert valid == expected or valid.startswith(expected + " "), (node.target.id, valid, expected)


def test_overrides_change_only_what_they_name():
    base = Rules.preset("chengdu")
    rules = Rules.preset("chengdu", cap_fan=4, exchange="dice")
    assert (rules.cap_fan, rules.exchange) == (4, "dice")
    differ = {k for k, v in rules.to_dict().items() if base.to_dict()[k] != v}
    assert differ == {"cap_fan", "exchange"}
    assert rules.preset_name == "chengdu"
    assert rules == base.replace(cap_fan=4, exchange="dice")
    assert rules != base
    assert repr(rules) == "Rules.preset('chengdu', exchange='dice', cap_fan=4)"


def test_fan_overrides_merge_into_the_table():
    rules = Rules.preset("xuezhan", fan={"golden_hook": 2, "heavenly": None})
    assert rules.fan["golden_hook"] == 2
    assert rules.fan["heavenly"] is None
    assert rules.fan["basic"] == 0


def test_unknown_preset_lists_the_presets():
    with pytest.raises(RulesError) as e:
        Rules.preset("chengdoo")
    assert str(e.value) == 'unknown preset "chengdoo"; presets: ' + ", ".join(f'"{p}"' for p in PRESETS)


def test_unknown_option_lists_the_options():
    with pytest.raises(RulesError) as e:
        Rules.preset("chengdu", cap=4)
    message = str(e.value)
    assert message.startswith('unknown option "cap"; options: "preset", "mode"')
    assert all(f'"{k}"' in message for k in schema_keys())


@pytest.mark.parametrize(
    "option, value, valid",
    [
        ("mode", "xueliu2", '"xuezhan", "xueliu"'),
        ("exchange", "north", 'null, "dice", "clockwise", "counterclockwise", "opposite", "random"'),
        ("cap_fan", 0, "null or an integer 1-64"),
        ("cap_fan", 1.5, "null or an integer 1-64"),
        ("base_points", 0, "an integer 1-1000000"),
        ("gen_fan", -1, "an integer 0-64"),
        ("gen_fan", True, "an integer 0-64"),
        ("wilds", 1, "true, false"),
        ("scoring", None, '"linear", "exponential", "multiplier_table"'),
    ],
)
def test_bad_values_list_the_valid_ones(option, value, valid):
    with pytest.raises(RulesError) as e:
        Rules.preset("chengdu", **{option: value})
    assert str(e.value).startswith(f'option "{option}" cannot be ')
    assert str(e.value).endswith(f"; valid: {valid}")


def test_bad_fan_entries():
    with pytest.raises(RulesError, match='unknown pattern "pinghu" in fan; patterns: "basic"'):
        Rules.preset("chengdu", fan={"pinghu": 1})
    with pytest.raises(RulesError, match='option "fan.basic" cannot be "one"'):
        Rules.preset("chengdu", fan={"basic": "one"})
    with pytest.raises(RulesError, match='option "fan" cannot be'):
        Rules.preset("chengdu", fan=3)


def test_rules_that_cannot_score_are_refused():
    with pytest.raises(RulesError, match="fan.basic cannot be null"):
        Rules.preset("chengdu", fan={"basic": None})
    with pytest.raises(RulesError, match="more than the [0-9]+ points one payment may be"):
        Rules.preset("xuezhan", fan={"flush_dragon_seven_pairs": 64})
    assert Rules.preset("xuezhan", fan={"flush_dragon_seven_pairs": 64}, cap_fan=20)
    with pytest.raises(RulesError, match="cannot be overridden"):
        Rules.preset("chengdu", preset="xuezhan")


def test_from_dict_needs_every_key():
    d = Rules.preset("sanxia").to_dict()
    del d["mode"], d["wilds"]
    with pytest.raises(RulesError, match="missing options: mode, wilds"):
        Rules.from_dict(d)
    d = Rules.preset("sanxia").to_dict()
    del d["fan"]["golden_hook"]
    with pytest.raises(RulesError, match="missing fan patterns: golden_hook"):
        Rules.from_dict(d)
    d = Rules.preset("sanxia").to_dict()
    d["colour"] = "red"
    with pytest.raises(RulesError, match='unknown option "colour"'):
        Rules.from_dict(d)
    d = Rules.preset("sanxia").to_dict()
    d["preset"] = None
    assert Rules.from_dict(d).preset_name is None
    assert repr(Rules.from_dict(d)).startswith("Rules.from_dict({'preset': None, 'mode': 'xueliu'")


def test_describe_shows_every_option_and_value():
    rules = Rules.preset("chengdu", cap_fan=4)
    text = rules.describe()
    lines = text.splitlines()
    assert lines[0] == "Rules (from preset chengdu)"
    for key, value in rules.to_dict().items():
        if key in ("preset", "fan"):
            continue
        shown = "—" if value is None else str(value).lower() if isinstance(value, bool) else str(value)
        assert any(line.split() == [key, shown] for line in lines), key
    for pattern, fan in rules.fan.items():
        shown = "—" if fan is None else str(fan)
        assert any(line.split()[:2] == [pattern, shown] for line in lines), pattern


def test_rules_pickle_and_hash():
    rules = Rules.preset("yaoji", cap_fan=4)
    assert pickle.loads(pickle.dumps(rules)) == rules
    assert len({Rules.preset("yaoji"), Rules.preset("yaoji"), rules}) == 2
    with pytest.raises(TypeError):
        Rules()


def test_points_follow_each_curve():
    # Seed 002 計分規則 2-3: 1 fan ×1, 2 ×2, 3 ×4 … 6 ×32, times the base 6.
    assert [Rules.preset("chengdu").points(f) for f in range(1, 7)] == [6, 12, 24, 48, 96, 192]
    # Seed 004: 0 fan ×1 … 6 fan ×64 (base 1).
    assert [Rules.preset("xuezhan").points(f) for f in range(7)] == [1, 2, 4, 8, 16, 32, 64]
    # Seeds 000/001: 底金 × fan.
    assert [Rules.preset("sanxia").points(f) for f in (1, 4, 10)] == [1, 4, 10]
    assert Rules.preset("sanxia", base_points=5).points(4) == 20
    # The multiplier table of §13: base × 2^fan.
    assert Rules.preset("xuezhan", scoring="multiplier_table", base_points=2).points(8) == 512
    with pytest.raises(RulesError):
        Rules.preset("xuezhan").points(-1)
