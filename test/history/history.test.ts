import { chmodSync, cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CLI_BIN, copyCorpus, CORPORA_DIR, HOOK_BIN, makeTempDir, PROMPT_HOOK_BIN, runNode } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";

function setup() {
  const base = makeTempDir();
  const projectRoot = copyCorpus("iflow-kb-2026-04", base);
  const store = join(base, "store");
  cpSync(join(CORPORA_DIR, "global-store-example"), store, { recursive: true });
  chmodSync(store, 0o700);
  return { base, projectRoot, store, env: { HOME: join(base, "home"), IFLOW_MEMORY_HOME: store } };
}

describe("the injection history, as the hooks write it", () => {
  it("holds every line, whole, when 8 session starts run at once, 20 rounds", async () => {
    const { projectRoot, store, env } = setup();
    for (let round = 0; round < 20; round++) {
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, session) =>
          runNode(HOOK_BIN, [], { env, stdin: JSON.stringify({ session_id: `s${session}-r${round}`, cwd: projectRoot, hook_event_name: "SessionStart", source: "startup" }) }),
        ),
      );
      expect(results.map((result) => [result.code, result.stdout === ""])).toEqual(Array.from({ length: 8 }, () => [0, false]));
    }
    const lines = readFileSync(join(store, ".history.jsonl"), "utf8").split("\n");
    expect(lines.pop()).toBe("");
    const records = lines.map((line) => JSON.parse(line) as { session: string; event: string; entries: Array<{ hash: string }>; chars: number });
    expect(records.map((record) => record.session).sort()).toEqual(Array.from({ length: 20 }, (_, round) => Array.from({ length: 8 }, (_, session) => `s${session}-r${round}`)).flat().sort());
    expect(records.every((record) => record.event === "startup" && record.entries.length > 0 && record.chars > 0)).toBe(true);
  });

  it("records a session start and a prompt recall, and history shows them by session and by entry", async () => {
    const { projectRoot, store, env } = setup();
    const start = await runNode(HOOK_BIN, [], { env, stdin: JSON.stringify({ session_id: "one", cwd: projectRoot, source: "startup" }) });
    const prompt = await runNode(PROMPT_HOOK_BIN, [], { env, stdin: JSON.stringify({ session_id: "one", cwd: projectRoot, prompt: "the embedding call times out; add retry with backoff" }) });
    expect([start.code, prompt.code, prompt.stdout === ""]).toEqual([0, 0, false]);
    const history = JSON.parse((await runNode(CLI_BIN, ["history", "--session", "one", "--json", "--global-store", store], { env })).stdout) as Array<{ event: string; ranking: string; entries: Array<{ hash: string; matched?: string[] }> }>;
    expect(history.map((record) => [record.event, record.ranking])).toEqual([
      ["prompt", "relevance"],
      ["startup", "original"],
    ]);
    expect(history[0]!.entries.every((entry) => (entry.matched ?? []).length > 0)).toBe(true);
    const hash = history[0]!.entries[0]!.hash;
    const byEntry = await runNode(CLI_BIN, ["history", "--entry", hash.slice(0, 6), "--global-store", store], { env });
    expect(byEntry.stdout).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ {2}one {2}iflow-kb-2026-04 {2}claude {2}prompt {2}\\d+ entr(y|ies), \\d+ characters \\(by relevance\\)\\n {4}sha256:[0-9a-f]{16} {2}.+ {2}\\(matched: `));
    expect((await runNode(CLI_BIN, ["history", "--session", "none", "--global-store", store], { env })).stdout).toBe("No injections recorded.\n");
    const bad = await runNode(CLI_BIN, ["history", "--entry", "xyz", "--global-store", store], { env });
    expect([bad.code, bad.stderr]).toEqual([2, 'iflow-memory: --entry takes a content hash or a prefix of 4 or more hex digits, not "xyz". (see iflow-memory history --help)\n']);
  });
});

describe("tag, as a user runs it", () => {
  it("re-tags a global entry project-specific and back, keeping its other tags, and refuses a missing or doubled flag", async () => {
    const { store, env } = setup();
    const cli = (args: string[]) => runNode(CLI_BIN, [...args, "--global-store", store], { env });
    const before = readFileSync(join(store, "heuristics.md"), "utf8");
    const first = await cli(["tag", "0baa2a5b", "--project-specific"]);
    expect([first.code, first.stdout]).toEqual([0, 'Tagged "Live Line Numbers Expire Before Implementation — Pre-Step Grep Required" (sha256:0baa2a5b66eb2269) project-specific.\n']);
    const after = readFileSync(join(store, "heuristics.md"), "utf8");
    expect(after.split("\n").filter((line, index) => line !== before.split("\n")[index])).toEqual(["- Tags: project-specific"]);
    expect((await cli(["tag", "0baa2a5b", "--project-specific"])).stdout).toContain("is tagged project-specific already; nothing changed.");
    expect((await cli(["tag", "0baa2a5b", "--universal"])).code).toBe(0);
    expect(readFileSync(join(store, "heuristics.md"), "utf8")).toBe(before);
    expect((await cli(["tag", "0baa2a5b"])).code).toBe(2);
    expect((await cli(["tag", "0baa2a5b", "--universal", "--project-specific"])).code).toBe(2);
    const unknown = await cli(["tag", "ffffffff", "--universal"]);
    expect([unknown.code, unknown.stderr]).toEqual([1, "iflow-memory: cannot tag ffffffff: no global entry has that hash or name; see iflow-memory list --scope global\n"]);
  });
});
