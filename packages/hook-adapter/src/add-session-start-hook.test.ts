import { describe, expect, it } from "vitest";
import { addSessionStartHook, removeSessionStartHook } from "./add-session-start-hook.js";

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

describe("removeSessionStartHook", () => {
  it("removes only our hook, and the group it leaves empty", () => {
    const settings = addSessionStartHook({ hooks: { SessionStart: [{ hooks: [{ type: "command", command: "other.sh" }] }] } }, COMMAND).settings;
    expect(removeSessionStartHook(settings)).toEqual({ settings: { hooks: { SessionStart: [{ hooks: [{ type: "command", command: "other.sh" }] }] } }, outcome: "removed" });
    expect(removeSessionStartHook({}).outcome).toBe("absent");
  });
});
