"""The schema is the validator: every YAML file of every shipped pack refuses a typo'd key with its
file, line and key; the reference and the JSON Schema are written from the same declarations."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest
import yaml
from click.testing import CliRunner

from pnp.cli import main
from pnp.errors import Problems
from pnp.pack import available_packs, read_pack
from pnp.units import CARD_SIZES_MM
from pnp.yamlsource import load_source

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = {p.name: p for p in available_packs()}


def data_files(pack: Path) -> list[Path]:
    """Every YAML file of a pack that has a schema (text files hold free keys: see below)."""
    return sorted(p for p in pack.rglob("*.yaml") if "text" not in p.relative_to(pack).parts)


def first_key(file: Path) -> tuple[str, int]:
    """The key of a mapping that comes first in the file, and its line."""
    source = load_source(file, Problems())
    keyed = sorted((line, path[-1]) for path, line in source.lines.items() if path and isinstance(path[-1], str))
    line, key = keyed[0]
    return key, line


def misspell(file: Path, key: str, line: int) -> str:
    """`key:` on `line` of `file` becomes `keyx:`; the misspelt key."""
    lines = file.read_text(encoding="utf-8").splitlines(keepends=True)
    assert f"{key}:" in lines[line - 1], (file, key, line)
    lines[line - 1] = lines[line - 1].replace(f"{key}:", f"{key}x:", 1)
    file.write_text("".join(lines), encoding="utf-8")
    return f"{key}x"


def typo(file: Path) -> tuple[str, int]:
    key, line = first_key(file)
    return misspell(file, key, line), line


CASES = [(game, str(f.relative_to(pack))) for game, pack in SHIPPED.items() for f in data_files(pack)]


@pytest.mark.parametrize("game,name", CASES, ids=[f"{g}/{n}" for g, n in CASES])
def test_a_typo_in_any_file_is_reported_with_file_line_and_key(tmp_path, game, name):
    pack = shutil.copytree(SHIPPED[game], tmp_path / game)
    bad_key, line = typo(pack / name)
    problems = Problems()
    read_pack(pack, problems)
    if name == "rules.yaml":     # read by the composition checker, not the loader
        from pnp.composition import load_rules
        _rules, findings = load_rules(pack, game)
        found = [(f.file, f.line, f.key) for f in findings]
    else:
        found = [(p.file, p.line, p.key) for p in problems.items if p.code == "schema.unknown-key"]
    assert any(file.endswith(name) and at == line and key.endswith(bad_key) for file, at, key in found), found


def test_check_and_build_stop_with_exit_2_on_a_typo(tmp_path):
    pack = shutil.copytree(SHIPPED["zombies-vs-vampires"], tmp_path / "zvv")
    board = pack / "board.yaml"
    board.write_text(board.read_text(encoding="utf-8").replace("pitch:", "pich:"), encoding="utf-8")
    runner = CliRunner()
    for args in (["check", str(pack), "--no-print"], ["build", str(pack), "--out", str(tmp_path / "out")]):
        result = runner.invoke(main, args)
        assert result.exit_code == 2, result.output
        assert "board.yaml:" in result.output and "pich" in result.output and "did you mean 'pitch'?" in result.output
        assert "Traceback" not in result.output
    assert not (tmp_path / "out").exists()


def test_a_duplicate_id_in_a_collection_is_reported(tmp_path):
    pack = shutil.copytree(SHIPPED["cimiterio"], tmp_path / "cimiterio")
    deceased = pack / "deceased.yaml"
    text = deceased.read_text(encoding="utf-8")
    deceased.write_text(text.replace("{id: zia-carmela,", "{id: don-ettore,", 1), encoding="utf-8")
    problems = Problems()
    read_pack(pack, problems)
    duplicates = [p for p in problems.items if p.code == "schema.duplicate-id"]
    assert [(Path(p.file).name, p.get("duplicate")) for p in duplicates] == [("deceased.yaml", "don-ettore")]


def test_a_wrong_type_in_a_collection_is_reported(tmp_path):
    pack = shutil.copytree(SHIPPED["cimiterio"], tmp_path / "cimiterio")
    deceased = pack / "deceased.yaml"
    deceased.write_text(deceased.read_text(encoding="utf-8").replace("hue: 262", "hue: true", 1), encoding="utf-8")
    problems = Problems()
    read_pack(pack, problems)
    assert [(p.code, p.key) for p in problems.items] == [("schema.type", "[0].hue")]


def test_lengths_are_millimetres_once_read():
    problems = Problems()
    pack = read_pack(SHIPPED["zombies-vs-vampires"], problems)
    assert not problems.items
    assert pack.collections["board"]["pitch"] == 21.0


def test_paths_never_leave_the_pack(tmp_path):
    pack = shutil.copytree(SHIPPED["zombie-run"], tmp_path / "zr")
    main_file = pack / "pack.yaml"
    main_file.write_text(main_file.read_text(encoding="utf-8").replace("file: symbols.yaml", "file: ../../etc/passwd"),
                         encoding="utf-8")
    problems = Problems()
    read_pack(pack, problems)
    assert [p.code for p in problems.items if p.code == "pack.path"] == ["pack.path"]


def test_the_reference_is_up_to_date():
    result = CliRunner().invoke(main, ["schema"])
    assert result.exit_code == 0, result.output
    assert result.output == (ROOT / "docs" / "reference.md").read_text(encoding="utf-8"), \
        "docs/reference.md is stale: run `pnp schema > docs/reference.md`"
    for word in ("### pack.yaml", "### components.yaml", "### rules.yaml", "`engine`", "| `face` |"):
        assert word in result.output


def test_the_reference_gives_each_named_card_size_in_mm():
    """A designer choosing `card_size: tarot` reads its trim in the reference, from pnp.units."""
    reference = (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")
    for name, (w, h) in CARD_SIZES_MM.items():
        assert f"{name} {w:g} x {h:g} mm" in reference, name


def _json_schemas(tmp_path: Path, game: str) -> dict[str, tuple[dict, list[str]]]:
    result = CliRunner().invoke(main, ["schema", "--json", game, "--out", str(tmp_path / "schemas")])
    assert result.exit_code == 0, result.output
    mapping = json.loads((tmp_path / "schemas" / "yaml-schemas.json").read_text())["yaml.schemas"]
    return {name: (json.loads(Path(name).read_text()), globs) for name, globs in mapping.items()}


def first_mapping(value):
    """The first mapping of a YAML value, depth first."""
    if isinstance(value, dict) and value:
        return value
    for item in value.values() if isinstance(value, dict) else value if isinstance(value, list) else []:
        found = first_mapping(item)
        if found is not None:
            return found
    return None


@pytest.mark.parametrize("game", sorted(SHIPPED))
def test_the_json_schema_accepts_the_shipped_pack_and_rejects_typos(tmp_path, game):
    pack = SHIPPED[game]
    checked = 0
    for name, (document, globs) in _json_schemas(tmp_path, game).items():
        jsonschema.Draft202012Validator.check_schema(document)
        validator = jsonschema.Draft202012Validator(document)
        for pattern in globs:   # '**/pack.yaml' for any pack, else a path from the working folder
            files = pack.glob(pattern.removeprefix("**/")) if pattern.startswith("**/") else Path().glob(pattern)
            for file in sorted(files):
                value = yaml.safe_load(file.read_text(encoding="utf-8"))
                errors = list(validator.iter_errors(value))
                assert not errors, (name, file, errors[0].message)
                checked += 1
                broken = tmp_path / "broken.yaml"
                shutil.copy(file, broken)
                typo(broken)                      # a renamed key: the real one is missing
                assert list(validator.iter_errors(yaml.safe_load(broken.read_text(encoding="utf-8")))), (name, file)
                extra = first_mapping(value)      # an extra key beside the real ones
                extra[next(iter(extra)) + "x"] = extra[next(iter(extra))]
                assert list(validator.iter_errors(value)), (name, file)
    assert checked >= 4


def first_leaf(file: Path) -> tuple[tuple, int]:
    """The key path of the first text (a string value) in a text file, and its line."""
    source = load_source(file, Problems())

    def value_at(path):
        value = source.value
        for part in path:
            value = value[part]
        return value

    leaves = sorted((line, path) for path, line in source.lines.items() if path and isinstance(value_at(path), str))
    line, path = leaves[0]
    return path, line


TEXT_CASES = [(game, f.stem) for game, pack in SHIPPED.items() for f in sorted((pack / "text").glob("*.yaml"))
              if not f.name.startswith(".") and f.name != "glossary.yaml"]    # the glossary is no language


@pytest.mark.parametrize("game,lang", TEXT_CASES, ids=[f"{g}/{lang}" for g, lang in TEXT_CASES])
def test_a_typo_in_a_text_file_is_one_error_on_its_line(tmp_path, game, lang):
    pack = shutil.copytree(SHIPPED[game], tmp_path / game)
    file = pack / "text" / f"{lang}.yaml"
    path, line = first_leaf(file)
    misspell(file, str(path[-1]), line)
    problems = Problems()
    read_pack(pack, problems)
    key = ".".join(map(str, path))
    assert [(Path(p.file).name, p.line, p.key, p.code, p.get("suggestion")) for p in problems.items] == \
        [(f"{lang}.yaml", line, key + "x", "schema.unknown-key", key)]


@pytest.mark.parametrize("game", sorted(SHIPPED))
def test_a_typo_in_the_translators_hash_file_is_reported(tmp_path, game):
    pack = shutil.copytree(SHIPPED[game], tmp_path / game)
    hashes = pack / "text" / ".source-hashes.yaml"
    path, line = first_leaf(hashes)
    misspell(hashes, str(path[-1]), line)
    problems = Problems()
    read_pack(pack, problems)
    assert [(Path(p.file).name, p.line, p.code, p.get("suggestion")) for p in problems.items] == \
        [(".source-hashes.yaml", line, "schema.unknown-key", path[-1])]


def test_editor_mapping_names_only_yaml_files(tmp_path, monkeypatch):
    """The `yaml.schemas` setting maps each schema to YAML files only: a deck in cards.csv keeps
    its schema file (the fields of its rows) but is no YAML language server's to check; the game's
    glossary, a YAML file of its own, is mapped."""
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(main, ["new", "sheet"]).exit_code == 0
    result = CliRunner().invoke(main, ["schema", "--json", "sheet", "--out", "schemas"])
    assert result.exit_code == 0, result.output
    mapping = json.loads((tmp_path / "schemas" / "yaml-schemas.json").read_text())["yaml.schemas"]
    assert mapping["schemas/sheet.cards.schema.json"] == []
    assert (tmp_path / "schemas" / "sheet.cards.schema.json").is_file()
    assert mapping["schemas/glossary.schema.json"] == ["**/text/glossary.yaml"]
    assert all(g.endswith((".yaml", ".yml")) for globs in mapping.values() for g in globs)
