import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI_BIN, HOOK_BIN, makeTempDir, runNode } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";

describe("a learning of project A reaches project B", () => {
  it("promotes A's universal learning into the global store, where B's session start finds it; A's project-specific one stays in A", async () => {
    const base = makeTempDir();
    const home = join(base, "home");
    mkdirSync(home);
    const projectA = join(base, "webshop");
    mkdirSync(join(projectA, "docs/knowledge-bank"), { recursive: true });
    mkdirSync(join(projectA, ".git"));
    mkdirSync(join(projectA, "hooks"));
    writeFileSync(join(projectA, "hooks/session-start.sh"), "#!/bin/sh\n");
    writeFileSync(
      join(projectA, "docs/knowledge-bank/anti-patterns.md"),
      "### Anti-Pattern: Retrying Non-Idempotent Requests\nA blanket retry charged a card twice when the first call timed out after succeeding.\n- Observation count: 2\n\n" +
        "### Anti-Pattern: Slow Session Hook\nhooks/session-start.sh spawns Python, adding 200 ms to every session start.\n",
    );
    const projectB = join(base, "notes-app");
    mkdirSync(join(projectB, ".git"), { recursive: true });

    const promote = await runNode(CLI_BIN, ["promote", "--project-root", projectA, "--feature", "011"], { env: { HOME: home } });
    expect(promote.code).toBe(0);
    expect(promote.stdout).toBe(
      "Retrying Non-Idempotent Requests: added to the global store (observation count 1). Universal because: names no file, package, folder or identifier of this project\n" +
        "Slow Session Hook: kept local. Project-specific because: names file hooks/session-start.sh\n" +
        "Memory promotion: 1 universal entries promoted to global store, 1 project-specific entries kept local.\n",
    );

    const hook = await runNode(HOOK_BIN, [], { stdin: JSON.stringify({ hook_event_name: "SessionStart", source: "startup", cwd: projectB }), env: { HOME: home } });
    const context = (JSON.parse(hook.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    expect(context).toContain("### Anti-Pattern: Retrying Non-Idempotent Requests\nA blanket retry charged a card twice");
    expect(context).toContain("- Source: webshop, Feature #011");
    expect(context).not.toContain("Slow Session Hook");

    const again = await runNode(CLI_BIN, ["promote", "--project-root", projectA, "--feature", "011", "--all"], { env: { HOME: home } });
    expect(again.stdout).toContain("Retrying Non-Idempotent Requests: already counted for webshop, Feature #011 (observation count 1).");
  });

  it("exits 1 with one line when --strict finds a secret, and 2 for contradictory selections", async () => {
    const base = makeTempDir();
    const root = join(base, "p");
    mkdirSync(join(root, "docs/knowledge-bank"), { recursive: true });
    writeFileSync(join(root, "docs/knowledge-bank/heuristics.md"), `### Heuristic: Keys\nThe staging key is ${"AKIA"}${"Q7XZ".repeat(4)}.\n`);
    const strict = await runNode(CLI_BIN, ["promote", "--project-root", root, "--strict"], { env: { HOME: join(base, "home") } });
    expect([strict.code, strict.stderr]).toEqual([1, 'iflow-memory: refusing to promote "Keys": it contains a secret (aws-access-key-id); remove it from the knowledge bank, or promote without --strict to redact it\n']);
    const both = await runNode(CLI_BIN, ["promote", "--project-root", root, "--all", "--since", "HEAD"], { env: { HOME: join(base, "home") } });
    expect(both.code).toBe(2);
  });
});
