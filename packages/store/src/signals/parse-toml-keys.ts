/** One `key = value` of a TOML file: the table it is in, its dotted key, its value as written. */
export interface TomlKey {
  /** The table's dotted name (`tool.poetry.dependencies`), `""` before the first table. */
  table: string;
  /** The key's parts, quotes removed (`serde.workspace` → `["serde", "workspace"]`). */
  key: string[];
  /** The value's text, comments removed; a multi-line array or inline table joined into one. */
  value: string;
}

const KEY_PART = /"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+)/g;
const KEY = /^((?:"(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)(?:\s*\.\s*(?:"(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+))*)\s*=\s*(.*)$/;

/**
 * The tables and keys of a TOML file, read leniently: just enough TOML for manifests
 * (`pyproject.toml`, `Cargo.toml`) — tables, array tables, dotted and quoted keys, strings,
 * multi-line arrays and inline tables, comments. Values are not interpreted (see `tomlStrings`);
 * a line it does not understand is passed over. Never throws.
 *
 * @example
 * parseTomlKeys('[package]\nname = "cart"\n[dependencies]\nserde = { version = "1" }\n');
 * // [{ table: "package", key: ["name"], value: '"cart"' }, { table: "dependencies", key: ["serde"], value: '{ version = "1" }' }]
 */
export function parseTomlKeys(text: string): TomlKey[] {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const keys: TomlKey[] = [];
  let table = "";
  for (let index = 0; index < lines.length; ) {
    const line = withoutComment(lines[index]!).trim();
    index += 1;
    if (line === "") continue;
    const header = /^\[\[?\s*(.+?)\s*\]\]?$/.exec(line);
    if (header !== null) {
      table = keyParts(header[1]!).join(".");
      continue;
    }
    const assignment = KEY.exec(line);
    if (assignment === null) continue;
    let value = assignment[2]!.trim();
    const quotes = value.startsWith('"""') ? '"""' : value.startsWith("'''") ? "'''" : null;
    if (quotes !== null) {
      // A multi-line string: its lines are text, never keys or tables.
      if (!value.slice(3).includes(quotes)) {
        while (index < lines.length && !lines[index]!.includes(quotes)) index += 1;
        index += 1;
      }
      value = "";
    } else {
      while (depth(value) > 0 && index < lines.length) {
        value += `\n${withoutComment(lines[index]!)}`;
        index += 1;
      }
    }
    keys.push({ table, key: keyParts(assignment[1]!), value: value.trim() });
  }
  return keys;
}

/**
 * The string literals in a TOML value, in order (basic strings unescaped for `\"` and `\\`).
 *
 * @example
 * tomlStrings('["requests>=2", \'pydantic\']'); // ["requests>=2", "pydantic"]
 */
export function tomlStrings(value: string): string[] {
  return [...value.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)].map((match) => match[1]?.replace(/\\(["\\])/g, "$1") ?? match[2] ?? "");
}

function keyParts(key: string): string[] {
  return [...key.matchAll(KEY_PART)].map((match) => match[1] ?? match[2] ?? match[3] ?? "");
}

// The line up to a `#` that is not inside a string.
function withoutComment(line: string): string {
  let quote: string | null = null;
  for (let index = 0; index < line.length; index += 1) {
    const character = line[index]!;
    if (quote === null) {
      if (character === "#") return line.slice(0, index);
      if (character === '"' || character === "'") quote = character;
    } else if (character === "\\" && quote === '"') {
      index += 1;
    } else if (character === quote) {
      quote = null;
    }
  }
  return line;
}

// Open brackets and braces outside strings.
function depth(value: string): number {
  let open = 0;
  let quote: string | null = null;
  for (let index = 0; index < value.length; index += 1) {
    const character = value[index]!;
    if (quote === null) {
      if (character === '"' || character === "'") quote = character;
      else if (character === "[" || character === "{") open += 1;
      else if (character === "]" || character === "}") open -= 1;
    } else if (character === "\\" && quote === '"') {
      index += 1;
    } else if (character === quote) {
      quote = null;
    }
  }
  return open;
}
