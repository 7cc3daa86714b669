import { spawn } from "node:child_process";
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { CLI_BIN, makeTempDir, REPO_ROOT, runNode } from "@iflow-memory/test-utils";

// Runs the real Codex CLI (`@openai/codex`, its platform package's native binary) and Gemini CLI
// (`@google/gemini-cli`) non-interactively in a temp HOME against a mock of their model API on
// 127.0.0.1, and records what the model would have received:
//
//   const api = await startMockModelApi();
//   const run = await runCodex({ api, home, cwd: project, prompt: "hello" });
//   codexDeveloperTexts(api.requests); // the hooks' added context, as Codex sends it
//   await api.close();

/** A request the mock received; `body` parsed when it is JSON. */
export interface RecordedRequest {
  path: string;
  body: unknown;
}

/** One scripted model turn: some text, or a call of a tool (MCP tools by their name in the agent). */
export type MockTurn = { text: string } | { tool: string; namespace?: string; args: Record<string, unknown> };

export interface MockModelApi {
  url: string;
  requests: RecordedRequest[];
  /** The turns to answer the next conversation requests with, in order; then text. */
  replyNext(...turns: MockTurn[]): void;
  close(): Promise<void>;
}

/** What the mock says when no turn was scripted. */
export const MOCK_REPLY = "Hello from the mock model.";

/**
 * A mock of both model APIs: OpenAI's Responses API (`POST /v1/responses`, server-sent events)
 * for Codex CLI, and the Gemini API (`:streamGenerateContent?alt=sse`, `:generateContent` for its
 * model router) for Gemini CLI. Only conversation requests take scripted turns.
 */
export async function startMockModelApi(): Promise<MockModelApi> {
  const requests: RecordedRequest[] = [];
  const script: MockTurn[] = [];
  let count = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // kept as text
      }
      const path = request.url ?? "";
      requests.push({ path, body });
      if (path.endsWith("/responses")) {
        const turn = script.shift() ?? { text: MOCK_REPLY };
        const id = `resp_${++count}`;
        const item =
          "text" in turn
            ? { type: "message", role: "assistant", id: `msg_${count}`, content: [{ type: "output_text", text: turn.text }] }
            : { type: "function_call", id: `fc_${count}`, call_id: `call_${count}`, name: turn.tool, ...(turn.namespace === undefined ? {} : { namespace: turn.namespace }), arguments: JSON.stringify(turn.args) };
        const usage = { input_tokens: 1, input_tokens_details: null, output_tokens: 1, output_tokens_details: null, total_tokens: 2 };
        response.writeHead(200, { "content-type": "text/event-stream" });
        for (const [type, data] of [
          ["response.created", { response: { id } }],
          ["response.output_item.done", { item }],
          ["response.completed", { response: { id, usage } }],
        ] as const) {
          response.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
        }
        response.end();
      } else if (path.includes(":streamGenerateContent")) {
        const turn = script.shift() ?? { text: MOCK_REPLY };
        const parts = "text" in turn ? [{ text: turn.text }] : [{ functionCall: { name: turn.tool, args: turn.args } }];
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.write(`data: ${JSON.stringify({ candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }], usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 } })}\n\n`);
        response.end();
      } else if (path.includes(":generateContent")) {
        // Gemini CLI's model router asks which model to use: the default one.
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ candidates: [{ content: { role: "model", parts: [{ text: "{}" }] }, finishReason: "STOP" }] }));
      } else if (path.includes(":countTokens")) {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ totalTokens: 1 }));
      } else {
        response.writeHead(404, { "content-type": "application/json" });
        response.end("{}");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    replyNext: (...turns) => void script.push(...turns),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface AgentRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A project with the demo knowledge bank, at one entry per session start (the prompt then has entries of its own to add), and a HOME. */
export function agentWorkspace(): { home: string; project: string } {
  const base = makeTempDir();
  const home = join(base, "home");
  const project = join(base, "webshop");
  mkdirSync(home);
  mkdirSync(join(project, ".claude"), { recursive: true });
  mkdirSync(join(project, ".git"));
  cpSync(join(REPO_ROOT, "examples/demo-project/docs/knowledge-bank"), join(project, "docs/knowledge-bank"), { recursive: true });
  writeFileSync(join(project, ".claude/iflow-dev.local.md"), "---\nmemory_injection_limit: 1\n---\n");
  return { home, project };
}

/** `iflow-memory setup <agent>` as a user runs it. */
export async function setupAgent(agent: "codex" | "gemini", home: string, args: string[] = []): Promise<void> {
  const result = await runNode(CLI_BIN, ["setup", agent, ...args], { env: { HOME: home } });
  if (result.code !== 0) throw new Error(`iflow-memory setup ${agent} failed: ${result.stderr}`);
}

// Only what the agents need: no API key, proxy or config of the machine's own user leaks in.
function baseEnv(home: string): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, LANG: "C.UTF-8", NO_COLOR: "1", NO_PROXY: "127.0.0.1,localhost" };
}

function runProcess(command: string, args: string[], options: { cwd: string; env: Record<string, string>; timeoutMs?: number }): Promise<AgentRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 90_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const CODEX_BIN = join(REPO_ROOT, "node_modules/@openai/codex/bin/codex.js");
const GEMINI_BIN = join(REPO_ROOT, "node_modules/@google/gemini-cli/bundle/gemini.js");

/**
 * Points Codex CLI at the mock: a model provider of its own in `~/.codex/config.toml` (written
 * before `setup codex`, which must keep it).
 */
export function configureCodex(home: string, api: MockModelApi): void {
  mkdirSync(join(home, ".codex"), { recursive: true });
  writeFileSync(
    join(home, ".codex/config.toml"),
    `# The mock model API of the e2e tests\nmodel = "mock-model"\nmodel_provider = "mock"\n\n[model_providers.mock]\nname = "mock"\nbase_url = "${api.url}/v1"\nwire_api = "responses"\n`,
  );
}

/** `codex exec PROMPT` in `cwd`; `trustHooks` passes --dangerously-bypass-hook-trust (the throwaway HOME has no /hooks review). */
export function runCodex(options: { home: string; cwd: string; prompt: string; trustHooks?: boolean; env?: Record<string, string> }): Promise<AgentRun> {
  const args = [CODEX_BIN, "exec", "--skip-git-repo-check", ...(options.trustHooks === false ? [] : ["--dangerously-bypass-hook-trust"]), options.prompt];
  return runProcess(process.execPath, args, { cwd: options.cwd, env: { ...baseEnv(options.home), CODEX_HOME: join(options.home, ".codex"), OPENAI_API_KEY: "sk-mock", ...options.env } });
}

/** Gemini CLI's settings with comments, as Gemini CLI reads them (before `setup gemini`, which must keep them). */
export const GEMINI_SETTINGS = `{
  // Log in with the API key in GEMINI_API_KEY (the mock's)
  "security": { "auth": { "selectedType": "gemini-api-key" } }
}
`;

/** Gemini CLI's API-key login, in `~/.gemini/settings.json`, commented (`GEMINI_SETTINGS`). */
export function configureGemini(home: string): void {
  mkdirSync(join(home, ".gemini"), { recursive: true });
  writeFileSync(join(home, ".gemini/settings.json"), GEMINI_SETTINGS);
}

/** `gemini -p PROMPT` in `cwd`, the folder trusted and tools allowed (a headless run has no prompt to allow them). */
export function runGemini(options: { home: string; cwd: string; prompt: string; api: MockModelApi }): Promise<AgentRun> {
  const args = [GEMINI_BIN, "--approval-mode", "yolo", "-p", options.prompt];
  return runProcess(process.execPath, args, {
    cwd: options.cwd,
    env: { ...baseEnv(options.home), GEMINI_API_KEY: "mock-key", GOOGLE_GEMINI_BASE_URL: options.api.url, GEMINI_CLI_TRUST_WORKSPACE: "true" },
  });
}

interface ResponsesInputItem {
  type?: string;
  role?: string;
  content?: Array<{ type?: string; text?: string }>;
  output?: string;
  call_id?: string;
}

/** The Responses API requests Codex sent, their `input` items. */
export function codexInputs(requests: RecordedRequest[]): ResponsesInputItem[][] {
  return requests.filter((request) => request.path.endsWith("/responses")).map((request) => ((request.body as { input?: ResponsesInputItem[] }).input ?? []));
}

/** The texts of the developer messages in one request's input: where Codex puts hooks' added context. */
export function developerTexts(input: ResponsesInputItem[]): string[] {
  return input.filter((item) => item.type === "message" && item.role === "developer").flatMap((item) => (item.content ?? []).map((part) => part.text ?? ""));
}

interface GeminiContent {
  role?: string;
  parts?: Array<{ text?: string; functionResponse?: { name?: string; response?: unknown } }>;
}

/** The `contents` of each conversation request Gemini CLI sent. */
export function geminiContents(requests: RecordedRequest[]): GeminiContent[][] {
  return requests.filter((request) => request.path.includes(":streamGenerateContent")).map((request) => ((request.body as { contents?: GeminiContent[] }).contents ?? []));
}
