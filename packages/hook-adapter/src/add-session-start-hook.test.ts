import { describe, expect, it } from "vitest";
import { addSessionStartHook, removeCommandHooks, removeSessionStartHook } from "./add-session-start-hook.js";

const COMMAND = 'node "/opt/iflow-memory/session-start.cjs"';

describe("addSessionStartHook", () => {
  it("adds the hook to empty settings", () => {
    expect(addSessionStartHook({}, COMMAND)).toEqual({ settings: { hooks: { SessionStart: [{ hooks: [{ type: "command", command: COMMAND, timeout: 10 }] }] } }, outcome: "added" });
  });

  it("keeps every other key, event and SessionStart hook", () => {
    const settings = { model: "opus", hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "guard.sh" }] }], SessionStart: [{ matcher: "startup", hooks: [{ type: "command", command: "other.sh" }] }] } };
    expect(addSessionStartHook(settings, COMMAND).settings).toEqual({
      model: "opus",
      hooks: {
        PreToolUse: settings.hooks.PreToolUse,
        SessionStart: [...settings.hooks.SessionStart, { hooks: [{ type: "command", command: COMMAND, timeout: 10 }] }],
      },
    });
  });

  it("is idempotent, and updates its own entry in place when the path changed", () => {
    const once = addSessionStartHook({}, COMMAND).settings;
    expect(addSessionStartHook(once, COMMAND)).toEqual({ settings: once, outcome: "unchanged" });
    const moved = addSessionStartHook(once, 'node "/new/place/session-start.cjs"');
    expect([moved.outcome, moved.settings]).toEqual(["updated", { hooks: { SessionStart: [{ hooks: [{ type: "command", command: 'node "/new/place/session-start.cjs"', timeout: 10 }] }] } }]);
  });
});

describe("addSessionStartHook (other tools)", () => {
  it("never takes another tool's session-start script for ours", () => {
    const settings = { hooks: { SessionStart: [{ hooks: [{ type: "command", command: 'node "/opt/other-tool/hooks/session-start.cjs"' }] }] } };
    const result = addSessionStartHook(settings, COMMAND);
    expect([result.outcome, result.settings.hooks]).toEqual(["added", { SessionStart: [...settings.hooks.SessionStart, { hooks: [{ type: "command", command: COMMAND, timeout: 10 }] }] }]);
    expect(removeSessionStartHook(settings).outcome).toBe("absent");
  });
});

describe("removeSessionStartHook", () => {
  it("removes only our hook, and the group it leaves empty", () => {
    const settings = addSessionStartHook({ hooks: { SessionStart: [{ hooks: [{ type: "command", command: "other.sh" }] }] } }, COMMAND).settings;
    expect(removeSessionStartHook(settings)).toEqual({ settings: { hooks: { SessionStart: [{ hooks: [{ type: "command", command: "other.sh" }] }] } }, outcome: "removed" });
    expect(removeSessionStartHook({}).outcome).toBe("absent");
  });

  it("removes the event's array and then hooks when the removal leaves them empty, so that an install and an uninstall leave the settings as they were", () => {
    const before = { model: "opus" };
    const installed = addSessionStartHook(addSessionStartHook(before, COMMAND).settings, COMMAND, 10, "UserPromptSubmit").settings;
    const once = removeSessionStartHook(installed, "SessionStart");
    expect(once).toEqual({ settings: { model: "opus", hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: COMMAND, timeout: 10 }] }] } }, outcome: "removed" });
    expect(removeSessionStartHook(once.settings, "UserPromptSubmit")).toEqual({ settings: before, outcome: "removed" });
  });

  it("keeps the emptied array and hooks with keepEmpty, for settings that had them before", () => {
    const installed = addSessionStartHook({ hooks: { SessionStart: [] } }, COMMAND).settings;
    expect(removeSessionStartHook(installed, "SessionStart", { keepEmpty: true }).settings).toEqual({ hooks: { SessionStart: [] } });
    expect(removeSessionStartHook(installed, "SessionStart").settings).toEqual({});
  });
});

describe("isIflowMemoryHook", () => {
  it("recognises the commands setup writes, wherever the checkout lives, and nothing else", async () => {
    const { isIflowMemoryHook } = await import("./add-session-start-hook.js");
    expect(
      [
        'node "/work/main/packages/hook-adapter/dist/session-start.cjs"',
        'node "/home/ada/src/mem/packages/cli/dist/bin.js" hook session-start',
        'node "${CLAUDE_PLUGIN_ROOT}/../iflow-memory/hooks/session-start.cjs"',
        "iflow-memory hook session-start",
        'node "/opt/other-tool/hooks/session-start.cjs"',
        "./session-start.sh",
      ].map(isIflowMemoryHook),
    ).toEqual([true, true, true, true, false, false]);
  });
});

describe("removeCommandHooks", () => {
  it("takes ours out of each event, giving the settings with and without what that leaves empty, and the events it was in", () => {
    const ours = { type: "command", command: "node '/opt/iflow-memory/session-start.cjs'" };
    const theirs = { type: "command", command: "bash peon.sh" };
    const settings = { model: "opus", hooks: { SessionStart: [{ hooks: [ours] }], UserPromptSubmit: [{ hooks: [theirs] }] } };
    expect(removeCommandHooks(settings, ["SessionStart", "UserPromptSubmit"])).toEqual({
      settings: { model: "opus", hooks: { UserPromptSubmit: [{ hooks: [theirs] }] } },
      keptEmpty: { model: "opus", hooks: { SessionStart: [], UserPromptSubmit: [{ hooks: [theirs] }] } },
      removed: ["SessionStart"],
    });
    expect(removeCommandHooks({ hooks: { SessionStart: [{ hooks: [ours] }] } }, ["SessionStart"])).toEqual({ settings: {}, keptEmpty: { hooks: { SessionStart: [] } }, removed: ["SessionStart"] });
  });
});
