/**
 * The config file's JSON Schema (draft-07): the contract of `toolslim.config.json` and the `toolslim` key of
 * `package.json`. The package ships it as `toolslim.config.schema.json` for editors (a test keeps that file
 * equal to this object, byte for byte as `JSON.stringify(CONFIG_SCHEMA, null, 2)` writes it); `config.ts` takes its
 * list of keys from here. The `rules` description lists the profile checker's codes from their one list
 * (`PROFILE_RULE_CODES`), so it cannot drift from what `check` accepts.
 */
import { PROFILE_RULE_CODES } from '../lint/index.js';

export const CONFIG_SCHEMA = {
  "$schema": "http://json-schema.org/draft-07/schema#",
  "$id": "https://unpkg.com/toolslim/toolslim.config.schema.json",
  "title": "toolslim config",
  "description": "Settings toolslim check and report read before their flags: toolslim.config.json, or the \"toolslim\" key of package.json, found in the input's directory or the nearest one above it. Flags win over the file.",
  "type": "object",
  "additionalProperties": false,
  "properties": {
    "rules": {
      "description": `Severity per finding code, or off (as --rule code=severity). Codes: see toolslim check --help; for --profile findings: ${PROFILE_RULE_CODES.join(', ')}.`,
      "type": "object",
      "additionalProperties": {
        "enum": [
          "error",
          "warning",
          "info",
          "off"
        ]
      }
    },
    "collisionThreshold": {
      "description": "Tools whose name+description similarity to another is at or above this get a description-collision finding (default 0.30).",
      "type": "number",
      "minimum": 0,
      "maximum": 1
    },
    "collisionPartners": {
      "description": "How many closest partners each collision finding names (default 3).",
      "type": "integer",
      "minimum": 1
    },
    "maxBytes": {
      "description": "Budget for the whole list, in compact JSON bytes.",
      "type": "number",
      "minimum": 0
    },
    "maxToolBytes": {
      "description": "Budget for any one tool, in compact JSON bytes.",
      "type": "number",
      "minimum": 0
    },
    "maxTokens": {
      "description": "Budget for the whole list, in o200k_base tokens (needs gpt-tokenizer).",
      "type": "number",
      "minimum": 0
    },
    "maxToolTokens": {
      "description": "Budget for any one tool, in o200k_base tokens (needs gpt-tokenizer).",
      "type": "number",
      "minimum": 0
    },
    "maxArguments": {
      "description": "Arguments above which a tool gets a many-arguments finding (default 4).",
      "type": "integer",
      "minimum": 0
    },
    "failOn": {
      "description": "check only: the least severity that fails the run (default error).",
      "enum": [
        "error",
        "warning",
        "info"
      ]
    },
    "maxWarnings": {
      "description": "check only: also fail when there are more warnings than this.",
      "type": "integer",
      "minimum": 0
    },
    "profile": {
      "description": "check only: also check against this client profile.",
      "type": "string",
      "enum": [
        "mcp",
        "claude",
        "openai",
        "openai-strict",
        "gemini",
        "kimi",
        "ref-free",
        "claude-code",
        "qwen",
        "llama"
      ]
    },
    "$schema": {
      "type": "string",
      "description": "This schema's address, for editors."
    }
  }
} as const;
