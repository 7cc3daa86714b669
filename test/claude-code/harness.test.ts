import { readFileSync, realpathSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it, onTestFinished } from "vitest";
import { DEFAULT_REPLY_TEXT, messagesRequests, requestTexts, runClaude, startMockMessagesApi, textReply, toolUseReply } from "./harness.js";

async function mockApi() {
  const api = await startMockMessagesApi();
  onTestFinished(() => api.close());
  return api;
}

describe("runClaude", () => {
  it("runs the Claude Code version the repository pins", async () => {
    const wrapper = realpathSync(createRequire(import.meta.url).resolve("@anthropic-ai/claude-code/package.json"));
    const { version } = JSON.parse(readFileSync(wrapper, "utf8")) as { version: string };
    const catalog = readFileSync(new URL("../../pnpm-workspace.yaml", import.meta.url), "utf8");
    expect(catalog).toContain(`"@anthropic-ai/claude-code": ${version}\n`);
    const run = await runClaude({ api: await mockApi(), home: makeTempDir(), cwd: makeTempDir(), args: ["--version"] });
    expect([run.code, run.stdout]).toEqual([0, `${version} (Claude Code)\n`]);
  });
});

describe("startMockMessagesApi", () => {
  it("answers a prompt's only request, a streamed POST /v1/messages, with its text reply, and nothing leaves 127.0.0.1", async () => {
    const api = await mockApi();
    const run = await runClaude({ api, home: makeTempDir(), cwd: makeTempDir(), prompt: "hello" });
    expect([run.code, run.result?.is_error, run.result?.result]).toEqual([0, false, DEFAULT_REPLY_TEXT]);
    expect(run.requests.map((request) => `${request.method} ${request.path}`)).toEqual(["POST /v1/messages?beta=true"]);
    const [body] = messagesRequests(run.requests);
    expect(body?.stream).toBe(true);
    expect(requestTexts(body!)).toContain("hello");
  });

  it("replies with a scripted tool_use, and Claude Code sends the tool's result in its next request", async () => {
    const api = await mockApi();
    const project = makeTempDir();
    writeFileSync(join(project, "notes.md"), "the marker is 7f3a9c\n");
    api.replyNext(toolUseReply("Read", { file_path: join(project, "notes.md") }, "toolu_read_notes"), textReply("Read it."));
    const run = await runClaude({ api, home: makeTempDir(), cwd: project, prompt: "read notes.md" });
    expect([run.code, run.result?.result, run.result?.num_turns]).toEqual([0, "Read it.", 2]);
    const [, second] = messagesRequests(run.requests);
    const toolResult = second?.messages.flatMap((message) => (typeof message.content === "string" ? [] : message.content)).find((block) => block.type === "tool_result");
    expect(toolResult?.tool_use_id).toBe("toolu_read_notes");
    expect(requestTexts(second!).some((text) => text.includes("the marker is 7f3a9c"))).toBe(true);
  });

  it("answers a request without stream: true with one JSON message", async () => {
    const api = await mockApi();
    api.replyNext(toolUseReply("Bash", { command: "true" }, "toolu_1"));
    const response = await fetch(`${api.baseUrl}/v1/messages`, { method: "POST", body: JSON.stringify({ model: "claude-x", max_tokens: 10, messages: [{ role: "user", content: "hi" }] }) });
    expect(await response.json()).toEqual({
      id: "msg_mock_1",
      type: "message",
      role: "assistant",
      model: "claude-x",
      stop_sequence: null,
      content: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "true" } }],
      stop_reason: "tool_use",
      usage: { input_tokens: 10, output_tokens: 5 },
    });
    expect((await fetch(`${api.baseUrl}/v1/other`)).status).toBe(404);
    expect(api.requests.map((request) => `${request.method} ${request.path}`)).toEqual(["POST /v1/messages", "GET /v1/other"]);
  });
});
