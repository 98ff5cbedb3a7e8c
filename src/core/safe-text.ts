/**
 * Text a server wrote (tool and parameter names, descriptions quoted in messages, an HTTP body in an error,
 * its `serverInfo.name`) on its way to a terminal: control characters are written as `\u001b`-style escapes,
 * so a name cannot drive the terminal — clear the screen, move the cursor up and overwrite `check`'s verdict,
 * retitle the window — nor a right-to-left override reorder what the line seems to say. Before, `check`
 * printed a tool named `evil\u001b[2J` as is.
 *
 * Escaped: C0 controls (with {@link oneLine}, newline and tab too: a value never spans lines, so it cannot
 * forge a line of the report), DEL, C1 controls, and the bidirectional embeddings, overrides and isolates
 * (U+202A–U+202E, U+2066–U+2069). Machine formats (JSON, SARIF, GitHub commands) have their own escaping
 * and are not passed through this. Every table cell goes through {@link oneLine} (`renderTable`), and so
 * do `formatReport`'s lines, which a library caller prints.
 */

const ALL_CONTROLS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const CONTROLS_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function escape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** A value for one line of terminal output: every control character escaped, newline and tab included. */
export function oneLine(text: string): string {
  return text.replace(ALL_CONTROLS, escape);
}

/** A message of several lines (an error, a progress line): control characters escaped, but for newline and tab. */
export function printable(text: string): string {
  return text.replace(CONTROLS_BUT_LINES, escape);
}
