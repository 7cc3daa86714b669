import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { revertSettingsFile } from "./revert-settings-file.js";
import { updateSettingsFile } from "./update-settings-file.js";

const OURS = { command: "iflow-memory" };

// Adds `ours` under `hooks`, as an install would.
const install = (path: string) => updateSettingsFile(path, (settings) => ({ settings: { ...settings, hooks: { ...(settings.hooks as object), ours: OURS } }, changed: true }));

// Removes `ours` (and `hooks` when that leaves it empty; keptEmpty keeps it).
const uninstall = (path: string, options: { dryRun?: boolean } = {}) =>
  revertSettingsFile(
    path,
    (settings) => {
      const hooks = (settings.hooks ?? {}) as Record<string, unknown>;
      if (!("ours" in hooks)) return { settings, keptEmpty: settings, changed: false };
      const { ours: _ours, ...rest } = hooks;
      const { hooks: _hooks, ...others } = settings;
      return { settings: Object.keys(rest).length === 0 ? others : { ...others, hooks: rest }, keptEmpty: { ...others, hooks: rest }, changed: true };
    },
    options,
  );

function settingsFile(text: string | null): string {
  const folder = makeTempDir();
  mkdirSync(join(folder, ".claude"));
  const path = join(folder, ".claude/settings.json");
  if (text !== null) writeFileSync(path, text);
  return path;
}

describe("revertSettingsFile", () => {
  it("puts the backup back, byte for byte (a BOM, tabs, the user's key order), when it holds what the removal gives", async () => {
    const before = '\uFEFF{\n\t"model": "opus",\n\t"hooks": {}\n}';
    const path = settingsFile(before);
    await install(path);
    expect(await uninstall(path)).toMatchObject({ outcome: "restored", backupRemoved: `${path}.iflow-memory.bak` });
    expect(readFileSync(path, "utf8")).toBe(before);
    expect(existsSync(`${path}.iflow-memory.bak`)).toBe(false);
  });

  it("rewrites the file without our entries when it changed since the backup, and removes the backup", async () => {
    const path = settingsFile('{ "model": "opus" }');
    await install(path);
    writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, "utf8")), theme: "dark" }));
    expect(await uninstall(path)).toMatchObject({ outcome: "rewritten", backupRemoved: `${path}.iflow-memory.bak` });
    expect(readFileSync(path, "utf8")).toBe('{\n  "model": "opus",\n  "theme": "dark"\n}\n');
    expect(existsSync(`${path}.iflow-memory.bak`)).toBe(false);
  });

  it("deletes a file it created that holds nothing else", async () => {
    const path = settingsFile(null);
    await install(path);
    expect(await uninstall(path)).toMatchObject({ outcome: "deleted", backupRemoved: null });
    expect(existsSync(path)).toBe(false);
  });

  it("changes nothing on a dry run, and only removes a stale backup when there is nothing to remove", async () => {
    const path = settingsFile('{ "model": "opus" }');
    await install(path);
    const installed = readFileSync(path, "utf8");
    expect(await uninstall(path, { dryRun: true })).toMatchObject({ outcome: "rewritten", backupRemoved: null });
    expect([readFileSync(path, "utf8"), existsSync(`${path}.iflow-memory.bak`)]).toEqual([installed, true]);
    writeFileSync(path, '{ "model": "opus" }');
    expect(await uninstall(path)).toMatchObject({ outcome: "unchanged", backupRemoved: `${path}.iflow-memory.bak` });
    expect(readFileSync(path, "utf8")).toBe('{ "model": "opus" }');
  });

  it("never touches a file that is not valid JSON", async () => {
    const path = settingsFile('{ "model": "opus", }');
    await expect(uninstall(path)).rejects.toThrow(/will not change .*settings\.json: it is not valid JSON/);
    expect(readFileSync(path, "utf8")).toBe('{ "model": "opus", }');
  });
});
