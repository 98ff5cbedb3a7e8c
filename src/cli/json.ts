/**
 * Parses JSON text for the CLI: a leading BOM is accepted; an error names the source and the line and
 * column where parsing failed.
 */
export function parseJsonText(text: string, source: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(body);
  } catch (e) {
    const message = (e as Error).message;
    const m = /position (\d+)/.exec(message);
    let where = '';
    if (m) {
      const pos = Number(m[1]);
      const before = body.slice(0, pos);
      const line = before.split('\n').length;
      const column = pos - before.lastIndexOf('\n');
      where = ` at line ${line}, column ${column}`;
    } else if (/Unexpected end/.test(message)) {
      where = ' (truncated: unexpected end of input)';
    }
    throw new Error(`${source}: not valid JSON${where}: ${message}`);
  }
}
