"""The schema as documentation and as JSON Schema: `pnp schema` and `pnp schema --json`.

Both are written from the one declaration of every field (pnp.schema), so docs/reference.md, the
editor's completion and the loader's messages cannot disagree.
"""
from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

from pnp import schema
from pnp.schema import Field, OneOf, Schema
from pnp.units import named_card_sizes

# The files of a pack, each with the module that declares its schema (imported on demand) and the
# name the schema is registered under.
FILES: list[tuple[str, str, str, str]] = [
    # (file, what it is, module, schema name)
    ("pack.yaml", "The entry of every pack.", "pnp.pack", "pack.yaml"),
    ("components.yaml", "What is printed besides cards: a list of components, each chosen by its "
     "`type`.", "pnp.components.types", "component"),
    ("rules.yaml", "The deck's composition rules, read by `pnp check`.", "pnp.composition.schema", "rules.yaml"),
    ("game records (`pnp replay`)", "A recorded game or scenario.", "pnp.engines.replay", "record"),
    ("perft.yaml", "Legal-move counts of positions, for engine tests.", "pnp.engines.replay", "perft file"),
    ("text/glossary.yaml", "A game's terms per language, for `pnp i18n lint` (the shared terms: "
     "pnp/i18n/glossary.yaml).", "pnp.schema", "glossary.yaml"),
]


def _file_schemas() -> list[tuple[str, str, Schema | OneOf]]:
    out = []
    for file, what, module, name in FILES:
        importlib.import_module(module)
        out.append((file, what, schema.SCHEMAS[name]))
    return out


# ---- the reference (Markdown) ----

def _default_text(spec: Field) -> str:
    if spec.required:
        return "required"
    if spec.default is None:
        return "none"
    if isinstance(spec.default, (dict, list, str)) and not spec.default:
        return "empty"
    return f"`{spec.default}`"


def _named_children(spec: Any) -> list[Schema | OneOf]:
    if isinstance(spec, schema.AnyOf):
        return [child for option in spec.specs for child in _named_children(option)]
    if isinstance(spec, list):
        return _named_children(spec[0])
    if isinstance(spec, (Schema, OneOf)):
        return [spec]
    return []


def _section(title: str, spec: Schema | OneOf, seen: set[int], lines: list[str], level: int = 3) -> None:
    if id(spec) in seen:
        return
    seen.add(id(spec))
    if isinstance(spec, OneOf):
        choices = spec.choices()
        lines += [f"{'#' * min(level, 6)} {title}", "", spec.doc, "",
                  f"Chosen by `{spec.tag}`: " + ", ".join(f"`{name}`" for name in sorted(choices)) + ".", ""]
        for name in sorted(choices):
            _section(f"{spec.tag}: {name}", choices[name], seen, lines, level + 1)
        return
    lines += [f"{'#' * min(level, 6)} {title}", "", spec.doc, ""]
    if spec.values is not None and not spec.fields:
        lines += [f"A mapping: every key is a name, every value {_type_text(spec.values)}.", ""]
        for child in _named_children(spec.values):
            _section(child.name or f"{title}: entry", child, seen, lines, level + 1)
        return
    lines += ["| key | type | default | meaning |", "|---|---|---|---|"]
    nested = []
    for key, field in spec.fields.items():
        lines.append(f"| `{key}` | {_type_text(field.type)} | {_default_text(field)} | {field.doc} |")
        nested += [(key, child) for child in _named_children(field.type)]
    lines.append("")
    for key, child in nested:
        _section(child.name or f"{title}: {key}", child, seen, lines, level + 1)


def _type_text(spec: Any) -> str:
    if isinstance(spec, schema.AnyOf):
        return " or ".join(_type_text(option) for option in spec.specs)
    if isinstance(spec, list):
        return f"list of {_type_text(spec[0])}"
    if isinstance(spec, Schema) and spec.values is not None and not spec.fields:
        return f"mapping of {_type_text(spec.values)}"
    if isinstance(spec, (Schema, OneOf)):
        return spec.name or "mapping"
    return f"`{spec}`".replace("|", "\\|")


def reference() -> str:
    """docs/reference.md: every file a pack may hold, every key, its type, default and meaning."""
    lines = ["# pnp data reference", "",
             "Written by `pnp schema` from the schema the loader validates with (pnp/schema.py and the",
             "modules that declare each file); a test keeps this file equal to its output. Unknown keys",
             "are errors everywhere.", "", "## Types", "",
             "| type | value |", "|---|---|"]
    for name in schema.SCALARS:
        lines.append(f"| `{name}` | {schema.SCALAR_NAMES[name]} |")
    lines += ["| `enum:a\\|b` | one of the words listed |",
              "| `ref:<collection>` | the `id` of an entry of that collection |",
              "| `list:<type>`, `map:<type>` | a list, or a mapping name -> value, of that type |",
              "| `<type>?` | optional: may be left out or null |",
              "| a mapping of types, `[a mapping]` | (card fields, collection entries) a nested mapping, "
              "or a list of them |", "",
              f"The named card sizes (a `size`), width x height: {named_card_sizes()}.", "", "## Files", ""]
    seen: set[int] = set()
    for file, _what, spec in _file_schemas():
        _section(file, spec, seen, lines, 3)
    return "\n".join(lines).rstrip() + "\n"


# ---- JSON Schema, for an editor's YAML language server ----

def _json(spec: Any) -> dict:
    if isinstance(spec, schema.AnyOf):
        return {"anyOf": [_json(option) for option in spec.specs]}
    if isinstance(spec, list):
        return {"type": "array", "items": _json(spec[0])}
    if isinstance(spec, OneOf):
        branches = []
        for name, choice in sorted(spec.choices().items()):
            body = _json(choice)
            body["properties"] = {spec.tag: {"const": name}, **body.get("properties", {})}
            body["required"] = [spec.tag, *body.get("required", [])]
            branches.append(body)
        return {"type": "object", "description": spec.doc, "oneOf": branches}
    if isinstance(spec, Schema):
        if spec.values is not None and not spec.fields:
            return {"type": "object", "description": spec.doc, "additionalProperties": _json(spec.values)}
        return {"type": "object", "description": spec.doc, "additionalProperties": False,
                "properties": {key: {**_json(f.type), "description": f.doc} for key, f in spec.fields.items()},
                "required": [key for key, f in spec.fields.items() if f.required]}
    optional = spec.endswith("?")
    base = spec.rstrip("?")
    out = _json_scalar(base)
    return {"anyOf": [out, {"type": "null"}]} if optional else out


def _json_scalar(base: str) -> dict:
    if base.startswith("list:"):
        return {"type": "array", "items": _json(base[5:])}
    if base.startswith("map:"):
        return {"type": "object", "additionalProperties": _json(base[4:])}
    if base.startswith("enum:"):
        return {"enum": base[5:].split("|")}
    if base.startswith("ref:"):
        return {"type": ["string", "integer"]}
    length: dict = {"oneOf": [{"type": "number"}, {"type": "string", "pattern": r"^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*(mm|cm|in|pt)?\s*$"}]}
    scalars: dict[str, dict] = {
        "int": {"type": "integer"}, "number": {"type": "number"}, "bool": {"type": "boolean"},
        "str": {"type": "string"}, "text": {"anyOf": [{"type": "string", "minLength": 1}, {"type": ["number", "integer"]},
                 {"type": "object", "additionalProperties": {"type": "string", "minLength": 1}}]}, "path": {"type": "string"},
        "color": {"type": "string", "pattern": schema.COLOR.pattern},
        "slug": {"type": "string", "pattern": schema.SLUG.pattern},
        "collection": {"type": "string", "pattern": schema.SLUG.pattern},
        "lang": {"type": "string", "pattern": schema.LANGUAGE.pattern},
        "length": length, "size": {"type": "string"}, "fieldtypes": {"type": "object"}, "any": {},
    }
    return scalars[base]


def _document(title: str, spec: Any) -> dict:
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": title, **_json(spec)}


def pack_json_schemas(pack_root: Path | None = None) -> dict[str, tuple[dict, list[str]]]:
    """{schema file name: (JSON Schema, the pack files it is for)}. With a pack, also its
    collections and card files, whose fields the pack declares."""
    out: dict[str, tuple[dict, list[str]]] = {}
    # any pack's files by name; records and perft files have no fixed name (point at them with a
    # `# yaml-language-server: $schema=<file>` line)
    globs = {"pack.yaml": ["**/pack.yaml"], "component": ["**/components.yaml"], "rules.yaml": ["**/rules.yaml"],
             "glossary.yaml": ["**/text/glossary.yaml"]}
    for file, _what, spec in _file_schemas():
        name = spec.name.replace(".yaml", "").replace(" ", "-")
        out[f"{name}.schema.json"] = (_document(file, [spec] if isinstance(spec, OneOf) else spec),
                                      globs.get(spec.name, []))
    if pack_root is not None:
        out.update(_pack_schemas(pack_root))
    return out


def _pack_schemas(root: Path) -> dict[str, tuple[dict, list[str]]]:
    from pnp.errors import display_path
    from pnp.pack import load_pack
    pack = load_pack(root, strict=False)
    here = display_path(pack.root)
    out: dict[str, tuple[dict, list[str]]] = {}
    main = pack.sources["pack"].value
    for name, body in (main.get("collections") or {}).items():
        items, fields = body.get("items"), body.get("fields")
        spec = schema.declared_type(items if items is not None else fields, name)
        out[f"{pack.id}.{name}.schema.json"] = (_document(body["file"], [spec] if items is not None else spec),
                                                _yaml_only([f"{here}/{body['file']}"]))
    kinds = OneOf("", f"A card of {pack.id}.", "kind", lambda: {k: _without(v.schema, "kind")
                                                             for k, v in pack.kinds.items()})
    card_files = sorted({str(deck.file.relative_to(pack.root)) for deck in pack.decks})
    if card_files:
        out[f"{pack.id}.cards.schema.json"] = (_document("cards", [kinds]), _yaml_only([f"{here}/{f}" for f in card_files]))
    return out


def _yaml_only(files: list[str]) -> list[str]:
    """The files a YAML language server may check: a spreadsheet (cards.csv, .xlsx, .ods) has the
    same fields, in columns, but no editor applies a JSON Schema to it."""
    return [f for f in files if f.lower().endswith((".yaml", ".yml"))]


def _without(spec: Schema, key: str) -> Schema:
    return Schema("", spec.doc, {k: v for k, v in spec.fields.items() if k != key})


def write_json_schemas(out_dir: Path, pack_root: Path | None = None) -> list[Path]:
    """The JSON Schemas and `yaml-schemas.json`, the `yaml.schemas` setting of an editor's YAML
    language server (schema file -> the files it checks, both relative to the working folder:
    copy it into .vscode/settings.json of the folder you open)."""
    from pnp.errors import display_path
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    mapping: dict[str, list[str]] = {}
    for file_name, (document, globs) in pack_json_schemas(pack_root).items():
        target = out_dir / file_name
        target.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(target)
        mapping[display_path(target)] = globs
    settings = out_dir / "yaml-schemas.json"
    settings.write_text(json.dumps({"yaml.schemas": mapping}, indent=2) + "\n", encoding="utf-8")
    return [*written, settings]
