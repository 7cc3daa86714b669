import { REPO_ROOT } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { demoWorkspace as workspace, messagesRequests, type MockMessagesApi, requestTexts, runClaude, textReply, toolUseReply } from "./harness.js";

// A user of the plugin alone has the command too: the plugin carries it (bin/iflow-memory.cjs),
// and its retrospective-memory skill runs it through ${CLAUDE_PLUGIN_ROOT}.

async function claude(api: MockMessagesApi, home: string, cwd: string, args: string[]): Promise<void> {
  const run = await runClaude({ api, home, cwd, args });
  expect({ args, code: run.code, stderr: run.stderr }).toEqual({ args, code: 0, stderr: "" });
}

describe("the plugin's command, in a real Claude Code session", () => {
  it("gives the model the skill with the plugin's own command in it", async () => {
    const { home, project, api } = await workspace();
    await claude(api, home, project, ["plugin", "marketplace", "add", REPO_ROOT]);
    await claude(api, home, project, ["plugin", "install", "iflow-memory@iflow-memory"]);
    api.replyNext(toolUseReply("Skill", { skill: "iflow-memory:retrospective-memory" }), textReply("Done."));
    const run = await runClaude({ api, home, cwd: project, prompt: "Promote the retrospective's learnings.", args: ["--allowedTools", "Skill"], timeoutMs: 60_000 });
    expect({ code: run.code, reply: run.result?.result }, run.stderr).toEqual({ code: 0, reply: "Done." });
    const texts = messagesRequests(run.requests).slice(1).flatMap(requestTexts);
    const skill = texts.find((text) => text.includes("# Promote retrospective learnings"));
    expect(skill).toBeDefined();
    // Claude Code puts the installed plugin's folder in place of ${CLAUDE_PLUGIN_ROOT}.
    expect(skill).not.toContain("${CLAUDE_PLUGIN_ROOT}");
    const command = /node "([^"]+\/bin\/iflow-memory\.cjs)" promote --feature <feature-id>\n/.exec(skill!)?.[1];
    expect(command).toBeDefined();

    // The model runs the command the skill names, as the skill says, and it works.
    const bash = toolUseReply("Bash", { command: `node "${command!}" promote --feature 042 --dry-run`, description: "Promote the learnings (dry run)" });
    api.replyNext(bash, textReply("Promoted."));
    const promoted = await runClaude({ api, home, cwd: project, prompt: "Run the promotion.", args: ["--allowedTools", "Bash"], timeoutMs: 60_000 });
    expect({ code: promoted.code, reply: promoted.result?.result }, promoted.stderr).toEqual({ code: 0, reply: "Promoted." });
    const output = messagesRequests(promoted.requests).slice(1).flatMap(requestTexts).find((text) => text.includes("Memory promotion:"));
    expect(output).toMatch(/Memory promotion: \d+ universal entr/);
  });

  it("is on the PATH of Claude Code's Bash tool as iflow-memory", async () => {
    const { home, project, api } = await workspace();
    await claude(api, home, project, ["plugin", "marketplace", "add", REPO_ROOT]);
    await claude(api, home, project, ["plugin", "install", "iflow-memory@iflow-memory"]);
    api.replyNext(toolUseReply("Bash", { command: "iflow-memory list --scope local --json | head -c 400", description: "List the project's memory" }), textReply("Listed."));
    const run = await runClaude({ api, home, cwd: project, prompt: "What is in memory?", args: ["--allowedTools", "Bash"], timeoutMs: 60_000 });
    expect({ code: run.code, reply: run.result?.result }, run.stderr).toEqual({ code: 0, reply: "Listed." });
    const output = messagesRequests(run.requests).slice(1).flatMap(requestTexts).find((text) => text.includes('"headerLine"'));
    expect(output).toContain('"headerLine": "### Anti-Pattern: Mocking the Database in Integration Tests"');
  });
});
