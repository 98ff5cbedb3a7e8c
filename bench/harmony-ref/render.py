#!/usr/bin/env python3
"""Independent reference of the harmony (gpt-oss) tools section, for bench/harmony-check.ts.

Provenance: written from openai/harmony v0.0.8, commit ec7606df9e87e3d0a1fec9f50928c1e407f0c438
(src/encoding.rs: `json_schema_to_typescript` and `template_tools_section`; src/tests.rs
`test_render_functions_with_parameters` with its expected text test-data/test_render_functions_with_parameters.txt;
docs/format.md). Read to learn the rules; this is a fresh Python 3.11 standard-library implementation, written
without looking at toolslim's src/render/typescript.ts, so the bench can use it as an oracle.

What it implements: the `functions` namespace of harmony's developer message, i.e. for each tool its
description as `// line` comments (Rust `str::lines` semantics) and `type name = (_: T) => any;` (or
`() => any` when the tool has no parameters), where T is the JSON schema rendered as harmony renders it:
  - `oneOf` (an array) wins over everything: a `\\n<indent> | variant` union with trailing `// description
    default: …` comments; as a property it gets its own block (`key?:` then one ` | variant` line each, `,`);
  - `type` as an array: its string members joined by ` | ` (`integer` written `number`);
  - `type: "object"`: `// description` above `{`, then every property with `// title` + `//`, `// description`,
    `// Examples:` / `// - "ex"`, `key?: T,` and a `// default: …` comment; closing brace at the indent;
  - `string` (with string `enum` values quoted and joined), `number`/`integer` (`number`), `boolean`,
    `array` (`T[]`, or `Array<any>` without `items`); every other schema is `any`;
  - `nullable: true` appends ` | null` unless the text already says null;
  - defaults: strings quoted without escaping, enum strings bare (as property), other values as serde_json
    prints them (compact JSON; floats as Rust's ryu prints them).
Key order is the input's (harmony builds serde_json with `preserve_order`).

Input (stdin): a JSON list of tools `{name, description?, inputSchema?}`, or `{"tools": [...]}`, or
`{"batches": [[...] or {"file": path}, ...]}` (many lists in one run, a list or a capture file read as the
server wrote it; the output is then `{"batches": [<one output each>]}`).
Output (stdout): JSON `{"section": "## functions\\n\\nnamespace functions {…} // namespace functions",
"tools": ["<per-tool text>", …], "errors": [...]}`; `--text` prints only the section. The per-tool text is the
tool's comment lines and its `type …;` line, joined by newlines, ending with the newline harmony puts there.
A schema nested deeper than serde_json's recursion limit (128) is one that harmony cannot even parse: that
tool's text is reported in `errors` and rendered as `() => any` in the section.
`--fixture` prints the developer message body of harmony's public fixture (for the bench's self-check).
"""
from __future__ import annotations

import json
import math
import sys

SERDE_DEPTH_LIMIT = 128


def field(value, key):
    """serde_json's `Value::get` with a string key: only objects have fields."""
    if isinstance(value, dict):
        return value.get(key)
    return None


def as_str(value):
    return value if isinstance(value, str) else None


def rust_lines(text: str) -> list[str]:
    """Rust `str::lines`: split at `\\n` (a `\\r` before it goes too); no final empty line."""
    if text == "":
        return []
    pieces = text.split("\n")
    ended = text.endswith("\n")
    if ended:
        pieces.pop()
    out = []
    for i, piece in enumerate(pieces):
        followed_by_newline = ended or i < len(pieces) - 1
        if followed_by_newline and piece.endswith("\r"):
            piece = piece[:-1]
        out.append(piece)
    return out


def ryu_float(x: float) -> str:
    """A finite f64 as serde_json (ryu) prints it: shortest digits, `1.0`, `1e20`, `1.5e-7`."""
    if x == 0:
        return "-0.0" if math.copysign(1.0, x) < 0 else "0.0"
    sign = "-" if x < 0 else ""
    mantissa, _, exp = repr(abs(x)).partition("e")
    int_part, _, frac_part = mantissa.partition(".")
    digits = int_part + frac_part
    point = len(int_part) + (int(exp) if exp else 0)  # value = 0.<digits> * 10^point
    stripped = digits.lstrip("0")
    point -= len(digits) - len(stripped)
    digits = stripped.rstrip("0")
    length = len(digits)
    k = point - length  # value = digits * 10^k
    if 0 <= k and point <= 16:
        return f"{sign}{digits}{'0' * k}.0"
    if 0 < point <= 16:
        return f"{sign}{digits[:point]}.{digits[point:]}"
    if -5 < point <= 0:
        return f"{sign}0.{'0' * -point}{digits}"
    e = point - 1
    if length == 1:
        return f"{sign}{digits}e{e}"
    return f"{sign}{digits[0]}.{digits[1:]}e{e}"


def serde_display(value) -> str:
    """`format!("{}", value)` for a serde_json Value: compact JSON, non-ASCII kept."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        if -(2**63) <= value < 2**64:
            return str(value)
        return ryu_float(float(value))  # beyond u64/i64 serde_json reads an f64
    if isinstance(value, float):
        return ryu_float(value) if math.isfinite(value) else "null"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ",".join(serde_display(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + serde_display(v) for k, v in value.items()) + "}"
    return json.dumps(value)


def has_enum(schema) -> bool:
    values = field(schema, "enum")
    return isinstance(values, list) and len(values) > 0


def default_text(schema, default, bare_enum_string: bool) -> str:
    """The text after `default: `. Property comments print an enum's string default bare; the top-level
    oneOf variant comments print it as JSON (`bare_enum_string` False)."""
    if isinstance(default, str) and not has_enum(schema):
        return f'"{default}"'
    if isinstance(default, str) and bare_enum_string:
        return default
    return serde_display(default)


def with_nullable(schema, text: str) -> str:
    if field(schema, "nullable") is True and "null" not in text:
        return text + " | null"
    return text


class Renderer:
    def ts(self, schema, indent: str) -> str:
        one_of = field(schema, "oneOf")
        if isinstance(one_of, list):
            return self.union(one_of, indent)
        kind = field(schema, "type")
        if isinstance(kind, list):
            names = ["number" if k == "integer" else k for k in kind if isinstance(k, str)]
            if names:
                return " | ".join(names)
        if isinstance(kind, str):
            if kind == "object":
                return self.obj(schema, indent)
            if kind == "string":
                values = field(schema, "enum")
                if isinstance(values, list):
                    quoted = [f'"{v}"' for v in values if isinstance(v, str)]
                    if quoted:
                        return " | ".join(quoted)
                return "string"
            if kind in ("number", "integer"):
                return "number"
            if kind == "boolean":
                return "boolean"
            if kind == "array":
                if isinstance(schema, dict) and "items" in schema:
                    return self.ts(schema["items"], indent) + "[]"
                return "Array<any>"
        return "any"

    def union(self, variants: list, indent: str) -> str:
        text = ""
        for variant in variants:
            text += f"\n{indent} | "
            text += with_nullable(variant, self.ts(variant, indent + "   "))
            notes = []
            desc = as_str(field(variant, "description"))
            if desc is not None:
                notes.append(desc)
            if isinstance(variant, dict) and "default" in variant:
                notes.append("default: " + default_text(variant, variant["default"], bare_enum_string=False))
            if notes:
                text += " // " + " ".join(notes)
        return text

    def obj(self, schema, indent: str) -> str:
        text = ""
        desc = as_str(field(schema, "description"))
        if desc is not None:
            text += f"{indent}// {desc}\n"
        text += "{\n"
        props = field(schema, "properties")
        if isinstance(props, dict):
            req = field(schema, "required")
            required = {r for r in req if isinstance(r, str)} if isinstance(req, list) else set()
            for key, prop in props.items():
                text += self.prop(key, prop, key in required, indent)
        text += f"{indent}}}"
        return text

    def prop(self, key: str, prop, required: bool, indent: str) -> str:
        mark = "" if required else "?"
        text = ""
        title = as_str(field(prop, "title"))
        if title is not None:
            text += f"{indent}// {title}\n{indent}//\n"
        has_one_of_key = isinstance(prop, dict) and "oneOf" in prop
        desc = as_str(field(prop, "description"))
        if not has_one_of_key and desc is not None:
            text += f"{indent}// {desc}\n"
        examples = field(prop, "examples")
        if isinstance(examples, list) and examples:
            text += f"{indent}// Examples:\n"
            for ex in examples:
                if isinstance(ex, str):
                    text += f'{indent}// - "{ex}"\n'
        one_of = field(prop, "oneOf")
        if isinstance(one_of, list):
            return text + self.one_of_prop(key, prop, one_of, mark, desc, indent)
        text += f"{indent}{key}{mark}: "
        text += with_nullable(prop, self.ts(prop, indent + "    "))
        text += ","
        if not has_one_of_key and isinstance(prop, dict) and "default" in prop:
            text += " // default: " + default_text(prop, prop["default"], bare_enum_string=True)
        return text + "\n"

    def one_of_prop(self, key, prop, variants, mark, desc, indent) -> str:
        text = ""
        first_desc = as_str(field(variants[0], "description")) if variants else None
        desc_above = desc is not None and first_desc != desc
        if desc_above:
            text += f"{indent}// {desc}\n"
        if "default" in prop:
            text += f"{indent}// default: " + default_text(prop, prop["default"], bare_enum_string=True) + "\n"
        text += f"{indent}{key}{mark}:\n"
        for i, variant in enumerate(variants):
            text += f"{indent} | " + with_nullable(variant, self.ts(variant, indent + "   "))
            notes = []
            vdesc = as_str(field(variant, "description"))
            if not (i == 0 and desc_above) and vdesc is not None and vdesc != desc:
                notes.append(vdesc)
            if isinstance(variant, dict) and "default" in variant:
                notes.append("default: " + default_text(variant, variant["default"], bare_enum_string=True))
            if notes:
                text += " // " + " ".join(notes)
            text += "\n"
        return text + f"{indent},\n"


def depth(value, limit: int) -> int:
    """Nesting depth of arrays/objects, counted iteratively; stops past `limit`."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (dict, list)):
            deepest = max(deepest, d)
            if deepest > limit:
                return deepest
            stack.extend((c, d + 1) for c in (v.values() if isinstance(v, dict) else v))
    return deepest


def render_tool(tool) -> tuple[str, str | None]:
    """One tool's lines as `template_tools_section` pushes them (joined by `\\n`), and an error if any."""
    name = tool.get("name", "") if isinstance(tool, dict) else ""
    name = name if isinstance(name, str) else str(name)
    desc = tool.get("description") if isinstance(tool, dict) else None
    lines = [f"// {line}" for line in rust_lines(desc if isinstance(desc, str) else "")]
    params = tool.get("inputSchema") if isinstance(tool, dict) else None
    error = None
    # +1: harmony parses the whole tool description, where the schema sits one level down.
    if params is not None and depth(params, SERDE_DEPTH_LIMIT) + 1 > SERDE_DEPTH_LIMIT:
        error = f"{name}: parameters nested deeper than serde_json's limit ({SERDE_DEPTH_LIMIT}); harmony cannot parse them"
        params = None
    if params is None:
        lines.append(f"type {name} = () => any;\n")
    else:
        lines.append(f"type {name} = (_: {Renderer().ts(params, '')}) => any;\n")
    return "\n".join(lines), error


def render_section(tools: list) -> dict:
    texts, errors = [], []
    for tool in tools:
        text, err = render_tool(tool)
        texts.append(text)
        if err:
            errors.append(err)
    if not tools:
        section = ""
    else:
        section = "\n".join(["## functions\n", "namespace functions {\n", *texts, "} // namespace functions"])
    return {"section": section, "tools": texts, "errors": errors}


FIXTURE_TOOLS = [
    {"name": "get_location", "description": "Gets the location of the user."},
    {
        "name": "get_current_weather",
        "description": "Gets the current weather in the provided location.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"},
                "format": {"type": "string", "enum": ["celsius", "fahrenheit"], "default": "celsius"},
            },
            "required": ["location"],
        },
    },
    {
        "name": "get_multiple_weathers",
        "description": "Gets the current weather in the provided list of locations.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "locations": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": 'List of city and state, e.g. ["San Francisco, CA", "New York, NY"]',
                },
                "format": {"type": "string", "enum": ["celsius", "fahrenheit"], "default": "celsius"},
            },
            "required": ["locations"],
        },
    },
    {
        "name": "kitchensink",
        "description": "A function with various complex schemas.",
        "inputSchema": {
            "description": "params object",
            "type": "object",
            "properties": {
                "string": {"type": "string", "title": "STRING", "description": "A string", "examples": ["hello", "world"]},
                "string_nullable": {"type": "string", "nullable": True, "description": "A nullable string", "default": "the default"},
                "string_enum": {"type": "string", "enum": ["a", "b", "c"]},
                "oneof_string_or_number": {
                    "oneOf": [
                        {"type": "string", "default": "default_string_in_oneof"},
                        {"type": "number", "description": "numbers can happen too"},
                    ],
                    "description": "a oneof",
                    "default": 20,
                },
            },
        },
    },
]


def fixture_developer_body() -> str:
    """The developer message of test_render_functions_with_parameters: instructions, then `# Tools`."""
    return "\n\n".join(["# Instructions", "Always respond in riddles", "# Tools\n\n" + render_section(FIXTURE_TOOLS)["section"]])


def tools_of_file(batch) -> list:
    """`{"file": path}`: the tools of a capture (`{toolsList: {tools}}` or `{tools}`), read from the server's own
    JSON text (its key order and number spelling), forwarded as a client forwards them."""
    path = batch.get("file") if isinstance(batch, dict) else None
    if not isinstance(path, str):
        return []
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    listing = data.get("toolsList") if isinstance(data.get("toolsList"), dict) else data
    tools = listing.get("tools") if isinstance(listing.get("tools"), list) else []
    out = []
    for t in tools:
        if not isinstance(t, dict):
            continue
        fwd = {"name": t.get("name", "")}
        if isinstance(t.get("description"), str):
            fwd["description"] = t["description"]
        if "inputSchema" in t:
            fwd["inputSchema"] = t["inputSchema"]
        out.append(fwd)
    return out


def main(argv: list[str]) -> int:
    if "--fixture" in argv:
        sys.stdout.write(fixture_developer_body())
        return 0
    data = json.load(sys.stdin)
    if isinstance(data, dict) and isinstance(data.get("batches"), list):
        outs = [render_section(b if isinstance(b, list) else tools_of_file(b)) for b in data["batches"]]
        sys.stdout.write(json.dumps({"batches": outs}, ensure_ascii=False))
        return 0
    tools = data.get("tools", []) if isinstance(data, dict) else data
    if not isinstance(tools, list):
        sys.stderr.write("render.py: expected a JSON list of tools or {\"tools\": [...]}\n")
        return 2
    out = render_section(tools)
    if "--text" in argv:
        sys.stdout.write(out["section"])
    else:
        sys.stdout.write(json.dumps(out, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.setrecursionlimit(10000)
    sys.exit(main(sys.argv[1:]))
