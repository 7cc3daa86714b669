import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseTomlKeys, tomlStrings, type TomlKey } from "./parse-toml-keys.js";
import { readCappedFile } from "./read-capped-file.js";

/** What a project's manifests say about it. */
export interface ProjectStack {
  /** The name a manifest gives the project, `null` when none does. */
  name: string | null;
  /** Stack markers first, then dependency names; deduplicated, at most `MAX_STACK_ITEMS`. */
  stack: string[];
  /** One line per manifest that could not be read. */
  skipped: string[];
}

export const MAX_STACK_ITEMS = 40;
/** Manifests are user files: one larger than this is skipped, not read. */
export const MAX_MANIFEST_BYTES = 1024 * 1024;

/**
 * The project's name and stack from the manifests in its root folder (nothing else is read):
 *
 * - markers: `node` (package.json), `typescript` (tsconfig.json, or `typescript` among the
 *   package's dependencies), `python` (pyproject.toml, setup.py, requirements.txt), `go`
 *   (go.mod), `rust` (Cargo.toml);
 * - then dependency names: package.json `dependencies` and `devDependencies` (`@types/*` left
 *   out: each repeats a package already named), pyproject `[project].dependencies` and Poetry's
 *   dependency tables (`python` left out), go.mod's direct requirements (the module path's last
 *   segment, a `/vN` major-version suffix passed over), Cargo.toml `[dependencies]` and
 *   `[workspace.dependencies]`.
 *
 * The name is package.json's `name`, else pyproject's `[project]` or `[tool.poetry]` name, else
 * Cargo.toml's `[package]` name, else go.mod's module (last segment). Never throws: a manifest
 * that is too large or malformed is a line in `skipped`.
 *
 * @example
 * readProjectStack("/work/semantic-memory");
 * // { name: "semantic-memory", stack: ["python", "httpx", "tenacity", "numpy"], skipped: [] }
 */
export function readProjectStack(projectRoot: string): ProjectStack {
  const markers: string[] = [];
  const dependencies: string[] = [];
  // In the order they name the project: package.json, pyproject, Cargo.toml, go.mod.
  const names = { node: null as string | null, python: null as string | null, rust: null as string | null, go: null as string | null };
  const skipped: string[] = [];

  const present = new Set<string>();
  const read = (file: string): string | null => {
    const result = readCappedFile(join(projectRoot, file), MAX_MANIFEST_BYTES);
    if ("missing" in result) return null;
    present.add(file);
    if ("error" in result) skipped.push(`${file} cannot be read (${result.error}); its name and dependencies skipped`);
    else if (result.truncated) skipped.push(`${file} is over ${MAX_MANIFEST_BYTES} bytes; its name and dependencies skipped`);
    else return result.text;
    return null;
  };

  let packageDependencies: string[] = [];
  const packageJson = read("package.json");
  if (present.has("package.json")) markers.push("node");
  if (packageJson !== null) {
    try {
      const manifest = JSON.parse(packageJson) as { name?: unknown; dependencies?: unknown; devDependencies?: unknown };
      names.node = typeof manifest.name === "string" ? manifest.name.trim() : null;
      packageDependencies = [manifest.dependencies, manifest.devDependencies].flatMap((table) =>
        typeof table === "object" && table !== null && !Array.isArray(table) ? Object.keys(table) : [],
      );
    } catch {
      skipped.push("package.json is not valid JSON; its name and dependencies skipped");
    }
  }
  if (existsSync(join(projectRoot, "tsconfig.json")) || packageDependencies.includes("typescript")) markers.push("typescript");
  for (const name of packageDependencies.filter((name) => !name.startsWith("@types/"))) dependencies.push(name);

  const pyproject = read("pyproject.toml");
  if (present.has("pyproject.toml") || existsSync(join(projectRoot, "setup.py")) || existsSync(join(projectRoot, "requirements.txt"))) markers.push("python");
  if (pyproject !== null) {
    const keys = parseTomlKeys(pyproject);
    names.python = stringValue(keys, "project", "name") ?? stringValue(keys, "tool.poetry", "name");
    for (const { table, key, value } of keys) {
      if (table === "project" && key.join(".") === "dependencies") {
        for (const requirement of tomlStrings(value)) {
          const name = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(requirement)?.[1];
          if (name !== undefined) dependencies.push(name);
        }
      }
    }
    for (const name of tableKeys(keys, /^tool\.poetry\.(?:dependencies|dev-dependencies|group\.[^.]+\.dependencies)$/).filter((name) => name !== "python")) dependencies.push(name);
  }

  const goMod = read("go.mod");
  if (present.has("go.mod")) markers.push("go");
  if (goMod !== null) {
    const modulePath = /^\s*module\s+"?([^\s"]+)"?/m.exec(goMod)?.[1];
    names.go = modulePath === undefined ? null : lastModuleSegment(modulePath);
    for (const name of readGoRequirements(goMod)) dependencies.push(name);
  }

  const cargo = read("Cargo.toml");
  if (present.has("Cargo.toml")) markers.push("rust");
  if (cargo !== null) {
    const keys = parseTomlKeys(cargo);
    names.rust = stringValue(keys, "package", "name");
    for (const name of tableKeys(keys, /^(?:workspace\.)?dependencies$/)) dependencies.push(name);
  }

  const stack = [...new Set([...markers, ...dependencies.map((name) => name.trim()).filter((name) => name !== "")])].slice(0, MAX_STACK_ITEMS);
  const name = [names.node, names.python, names.rust, names.go].find((candidate) => candidate !== null && candidate !== "") ?? null;
  return { name, stack, skipped };
}

// A key's string value in a table, when it is a string.
function stringValue(keys: readonly TomlKey[], table: string, key: string): string | null {
  const found = keys.find((entry) => entry.table === table && entry.key.join(".") === key);
  if (found === undefined || !/^["']/.test(found.value)) return null;
  return tomlStrings(found.value)[0]?.trim() || null;
}

// The first key part of every key in the matching tables, and the name of a `[table.name]`
// sub-table (`[dependencies.serde]`), in order.
function tableKeys(keys: readonly TomlKey[], table: RegExp): string[] {
  const names: string[] = [];
  for (const entry of keys) {
    if (table.test(entry.table)) names.push(entry.key[0]!);
    const dot = entry.table.lastIndexOf(".");
    if (dot !== -1 && table.test(entry.table.slice(0, dot))) names.push(entry.table.slice(dot + 1));
  }
  return names;
}

// Direct requirements of a go.mod (one-line and block form), `// indirect` ones left out.
function readGoRequirements(text: string): string[] {
  const names: string[] = [];
  let inBlock = false;
  for (const rawLine of text.replace(/\r\n?/g, "\n").split("\n")) {
    const line = rawLine.trim();
    let requirement: string | null = null;
    if (inBlock) {
      if (line.startsWith(")")) inBlock = false;
      else requirement = line;
    } else if (/^require\s*\($/.test(line)) {
      inBlock = true;
    } else if (line.startsWith("require ")) {
      requirement = line.slice("require ".length).trim();
    }
    if (requirement === null || requirement === "" || requirement.startsWith("//") || /\/\/\s*indirect\b/.test(requirement)) continue;
    const path = /^"?([^\s"]+)"?/.exec(requirement)?.[1];
    if (path !== undefined) names.push(lastModuleSegment(path));
  }
  return names;
}

// "github.com/cenkalti/backoff/v4" → "backoff"; "gopkg.in/yaml.v3" → "yaml.v3".
function lastModuleSegment(modulePath: string): string {
  const segments = modulePath.split("/").filter((segment) => segment !== "");
  const last = segments.at(-1) ?? modulePath;
  return /^v\d+$/.test(last) && segments.length > 1 ? segments.at(-2)! : last;
}
