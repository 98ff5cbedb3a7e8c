# Writes the expected texts of test/render/json.test.ts with Python's json module, the serializer behind
# Jinja's `tojson` in Hugging Face chat templates (an oracle independent of toolslim's code).
# Run from this folder: python3 make.py
import json

tools = json.load(open("tools.json", encoding="utf-8"))

def openai(t):
    f = {"name": t["name"]}
    if "description" in t:
        f["description"] = t["description"]
    if "inputSchema" in t:
        f["parameters"] = t["inputSchema"]
    return {"type": "function", "function": f}

def write(name, text):
    with open(name, "w", encoding="utf-8", newline="") as fh:
        fh.write(text)

# Qwen3: "\n" + tojson per tool inside <tools>…</tools>; the section is the lines joined by "\n".
write("expected.json-spaced.txt", "\n".join(json.dumps(openai(t), ensure_ascii=False) for t in tools))
# Llama 3.1: tojson(indent=4) per tool, each followed by "\n\n".
write("expected.json-indent4.txt", "".join(json.dumps(openai(t), ensure_ascii=False, indent=4) + "\n\n" for t in tools))
# MCP wire form, compact.
write("expected.json.txt", "\n".join(json.dumps({k: t[k] for k in ("name", "description", "inputSchema") if k in t}, ensure_ascii=False, separators=(",", ":")) for t in tools))
