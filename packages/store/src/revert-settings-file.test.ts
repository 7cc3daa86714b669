import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { revertSettingsFile, revertTextFile } from "./revert-settings-file.js";
import { updateSettingsFile } from "./update-settings-file.js";
import { updateTextFile } from "./update-text-file.js";

const OURS = { command: "iflow-memory" };

// Adds `ours` under `hooks`, as an install would.
const install = (path: string) => updateSettingsFile(path, (settings) => ({ settings: { ...settings, hooks: { ...(settings.hooks as object), ours: OURS } }, changed: true }));

// Removes `ours` (and `hooks` when that leaves it empty; keptEmpty keeps it).
const uninstall = (path: string, options: { dryRun?: boolean; comments?: boolean } = {}) =>
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

  it("changes nothing on a dry run (saying what it would do), and only removes a stale backup when there is nothing to remove", async () => {
    const path = settingsFile('{ "model": "opus" }');
    await install(path);
    const installed = readFileSync(path, "utf8");
    expect(await uninstall(path, { dryRun: true })).toMatchObject({ outcome: "restored", backupRemoved: null });
    const made = settingsFile(null);
    await install(made);
    expect(await uninstall(made, { dryRun: true })).toMatchObject({ outcome: "deleted", backupRemoved: null });
    expect(existsSync(made)).toBe(true);
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

  it("keeps a file's comments where it rewrites it (comments: Gemini CLI's settings), and puts a commented backup back whole", async () => {
    const commented = '{\n  // my editor\n  "editor": "vim"\n}\n';
    const path = settingsFile(commented);
    await updateSettingsFile(path, (settings) => ({ settings: { ...settings, hooks: { ours: OURS } }, changed: true }), { comments: true });
    expect(await uninstall(path, { comments: true })).toMatchObject({ outcome: "restored" });
    expect(readFileSync(path, "utf8")).toBe(commented);
    await updateSettingsFile(path, (settings) => ({ settings: { ...settings, hooks: { ours: OURS } }, changed: true }), { comments: true });
    // Changed since the install: written without ours, the comment where it was.
    writeFileSync(path, readFileSync(path, "utf8").replace('"editor": "vim"', '"editor": "vim",\n  "theme": "dark"'));
    const result = await uninstall(path, { comments: true });
    expect(result).toMatchObject({ outcome: "rewritten", backupRemoved: `${path}.iflow-memory.bak` });
    expect([readFileSync(path, "utf8"), result.text]).toEqual(['{\n  // my editor\n  "editor": "vim",\n  "theme": "dark"\n}\n', readFileSync(path, "utf8")]);
  });
});

describe("revertTextFile", () => {
  // A config of lines, ours the line "ours = true", as an install appends it.
  const OUR_LINE = "ours = true\n";
  const installText = (path: string) => updateTextFile(path, (text) => ({ text: `${text ?? ""}${OUR_LINE}`, changed: true }));
  const uninstallText = (path: string, options: { dryRun?: boolean } = {}) =>
    revertTextFile(
      path,
      (text) => {
        if (text === null) throw new Error(`no ${path}`);
        const rest = text.replace(OUR_LINE, "");
        if (rest.includes("not a config")) throw new Error(`will not change ${path}: it is not a config`);
        return { text: rest, changed: rest !== text, empty: rest.trim() === "" };
      },
      // The same lines, whatever the blank ones.
      (backup, result) => backup.split("\n").filter((line) => line !== "").join("\n") === result.text.split("\n").filter((line) => line !== "").join("\n"),
      options,
    );
  const configFile = (text: string | null): string => {
    const path = join(makeTempDir(), "config.toml");
    if (text !== null) writeFileSync(path, text);
    return path;
  };

  it("puts the backup back byte for byte when it holds what the removal gives, and removes it", async () => {
    const before = 'model = "gpt-5.5"\n\n\n';
    const path = configFile(before);
    await installText(path);
    expect(await uninstallText(path)).toMatchObject({ outcome: "restored", backupRemoved: `${path}.iflow-memory.bak` });
    expect([readFileSync(path, "utf8"), existsSync(`${path}.iflow-memory.bak`)]).toEqual([before, false]);
  });

  it("deletes a file the install made that holds nothing else, and keeps one that held nothing before it", async () => {
    const made = configFile(null);
    await installText(made);
    expect(await uninstallText(made)).toMatchObject({ outcome: "deleted", backupRemoved: null });
    expect(existsSync(made)).toBe(false);
    // Empty before the install: its backup says there was a file, and it is put back.
    const empty = configFile("");
    await installText(empty);
    expect(await uninstallText(empty)).toMatchObject({ outcome: "restored" });
    expect(readFileSync(empty, "utf8")).toBe("");
  });

  it("writes the file without ours when it changed since the install, and removes the backup", async () => {
    const path = configFile('model = "gpt-5.5"\n');
    await installText(path);
    writeFileSync(path, `${readFileSync(path, "utf8")}theme = "dark"\n`);
    expect(await uninstallText(path)).toMatchObject({ outcome: "rewritten", backupRemoved: `${path}.iflow-memory.bak` });
    expect([readFileSync(path, "utf8"), existsSync(`${path}.iflow-memory.bak`)]).toEqual(['model = "gpt-5.5"\ntheme = "dark"\n', false]);
  });

  it("changes nothing on a dry run (saying what it would do), nor for a file it refuses", async () => {
    const path = configFile('model = "gpt-5.5"\n');
    await installText(path);
    const installed = readFileSync(path, "utf8");
    expect(await uninstallText(path, { dryRun: true })).toMatchObject({ outcome: "restored", text: 'model = "gpt-5.5"\n', backupRemoved: null });
    expect([readFileSync(path, "utf8"), existsSync(`${path}.iflow-memory.bak`)]).toEqual([installed, true]);
    const refused = configFile(`not a config\n${OUR_LINE}`);
    await expect(uninstallText(refused)).rejects.toThrow(/it is not a config/);
    expect(readFileSync(refused, "utf8")).toBe(`not a config\n${OUR_LINE}`);
  });
});
