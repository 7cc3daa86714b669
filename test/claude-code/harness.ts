import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { createRequire } from "node:module";
import { delimiter, dirname, join } from "node:path";
import { makeTempDir, REPO_ROOT } from "@iflow-memory/test-utils";
import { onTestFinished } from "vitest";

// Runs the real Claude Code CLI (the devDependency `@anthropic-ai/claude-code`) against a mock
// of the Anthropic Messages API on 127.0.0.1, and records what the model would have received:
//
//   const api = await startMockMessagesApi();
//   const run = await runClaude({ api, home, cwd: project, prompt: "hello" });
//   hookContextText(run.requests, "SessionStart"); // "## Engineering Memory (from knowledge bank)\n…"
//   await api.close();

/** A block of an assistant reply the mock sends: text, or a call of one of Claude Code's tools. */
export type MockContentBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

/** One assistant turn the mock answers a POST /v1/messages with. */
export interface MockReply {
  content: MockContentBlock[];
  stopReason: "end_turn" | "tool_use" | "max_tokens";
}

/** What the mock answers when no reply was scripted. */
export const DEFAULT_REPLY_TEXT = "Hello from the mock Messages API.";

/** An assistant turn that only says `text`. */
export function textReply(text: string): MockReply {
  return { content: [{ type: "text", text }], stopReason: "end_turn" };
}

let toolUseCount = 0;

/**
 * An assistant turn that calls one tool; Claude Code runs it (as its permissions allow) and sends
 * the `tool_result` in its next request. `name` is a built-in tool (`Read`, `Bash`) or an MCP
 * tool (`mcp__server__tool`).
 *
 * ```ts
 * api.replyNext(toolUseReply("Read", { file_path: "/tmp/p/notes.md" }), textReply("Done."));
 * ```
 */
export function toolUseReply(name: string, input: Record<string, unknown>, id = `toolu_mock_${++toolUseCount}`): MockReply {
  return { content: [{ type: "tool_use", id, name, input }], stopReason: "tool_use" };
}

/** A request the mock received, in order of arrival; `body` is parsed when it is JSON. */
export interface RecordedRequest {
  method: string;
  /** The path with its query (`/v1/messages?beta=true`), or the `host:port` of a CONNECT. */
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** A content block of a Messages API request, as far as the tests read it. */
export interface RequestContentBlock {
  type: string;
  text?: string;
  tool_use_id?: string;
  content?: string | Array<{ type: string; text?: string }>;
  [key: string]: unknown;
}

/** The body of a POST /v1/messages, as far as the tests read it. */
export interface MessagesRequestBody {
  model: string;
  stream?: boolean;
  system?: string | Array<{ type: string; text: string }>;
  messages: Array<{ role: string; content: string | RequestContentBlock[] }>;
  tools?: Array<{ name: string; [key: string]: unknown }>;
  [key: string]: unknown;
}

export interface MockMessagesApi {
  /** `http://127.0.0.1:PORT`, for ANTHROPIC_BASE_URL. */
  baseUrl: string;
  /** Every request received so far, Messages API or not (CONNECTs through it as a proxy included). */
  requests: RecordedRequest[];
  /** Queues replies: each POST /v1/messages takes the next one, or the default text when none is left. */
  replyNext(...replies: MockReply[]): void;
  close(): Promise<void>;
}

/**
 * Starts a mock of the Anthropic Messages API on 127.0.0.1 (a free port). POST /v1/messages is
 * answered with the next scripted reply, as server-sent events when the request says
 * `stream: true` (Claude Code always does) and as one JSON message otherwise; count_tokens and
 * the model list get plausible answers, any other path a 404 in the API's error format. It is
 * also the HTTP proxy `runClaude` gives Claude Code: a CONNECT (traffic meant for the internet)
 * is recorded and refused.
 */
export async function startMockMessagesApi(): Promise<MockMessagesApi> {
  const requests: RecordedRequest[] = [];
  const replies: MockReply[] = [];
  let messageCount = 0;
  const sockets = new Set<Socket>();

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const body = parseJson(text);
      const path = request.url ?? "/";
      requests.push({ method: request.method ?? "", path, headers: request.headers, body });
      const pathname = path.split("?")[0];
      if (/^[a-z]+:\/\//i.test(path)) return sendJson(response, 502, apiError("api_error", "the test harness allows no traffic beyond 127.0.0.1"));
      if (request.method === "POST" && pathname === "/v1/messages") {
        const reply = replies.shift() ?? textReply(DEFAULT_REPLY_TEXT);
        const model = (body as Partial<MessagesRequestBody> | undefined)?.model ?? "claude-mock";
        const message = { id: `msg_mock_${++messageCount}`, type: "message", role: "assistant", model, stop_sequence: null };
        if ((body as Partial<MessagesRequestBody> | undefined)?.stream === true) return streamReply(response, message, reply);
        return sendJson(response, 200, { ...message, content: reply.content, stop_reason: reply.stopReason, usage: USAGE });
      }
      if (request.method === "POST" && pathname === "/v1/messages/count_tokens") return sendJson(response, 200, { input_tokens: Math.ceil(text.length / 4) });
      if (request.method === "GET" && pathname === "/v1/models") return sendJson(response, 200, { data: [], has_more: false, first_id: null, last_id: null });
      sendJson(response, 404, apiError("not_found_error", `the mock does not serve ${request.method} ${pathname}`));
    });
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.on("connect", (request, socket: Socket) => {
    requests.push({ method: "CONNECT", path: request.url ?? "", headers: request.headers, body: undefined });
    socket.on("error", () => {});
    socket.end("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n");
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    replyNext: (...next) => void replies.push(...next),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function apiError(type: string, message: string) {
  return { type: "error", error: { type, message } };
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(value));
}

/** Token counts Claude Code adds up and prices; their values do not matter. */
const USAGE = { input_tokens: 10, output_tokens: 5 };

/** The Messages streaming format: message_start, each block's start, delta and stop, message_delta, message_stop. */
function streamReply(response: ServerResponse, message: Record<string, unknown>, reply: MockReply): void {
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const send = (event: { type: string; [key: string]: unknown }) => response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  send({ type: "message_start", message: { ...message, content: [], stop_reason: null, usage: { ...USAGE, output_tokens: 1 } } });
  reply.content.forEach((block, index) => {
    if (block.type === "text") {
      send({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
      send({ type: "content_block_delta", index, delta: { type: "text_delta", text: block.text } });
    } else {
      send({ type: "content_block_start", index, content_block: { ...block, input: {} } });
      send({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } });
    }
    send({ type: "content_block_stop", index });
  });
  send({ type: "message_delta", delta: { stop_reason: reply.stopReason, stop_sequence: null }, usage: { output_tokens: USAGE.output_tokens } });
  send({ type: "message_stop" });
  response.end();
}

/** The bodies of the POST /v1/messages among `requests`: what the model received, turn by turn. */
export function messagesRequests(requests: RecordedRequest[]): MessagesRequestBody[] {
  return requests
    .filter((request) => request.method === "POST" && request.path.split("?")[0] === "/v1/messages")
    .map((request) => request.body as MessagesRequestBody);
}

/** Every text of one request in order: the system prompt, then each message's text and tool_result blocks. */
export function requestTexts(body: MessagesRequestBody): string[] {
  const texts = typeof body.system === "string" ? [body.system] : (body.system ?? []).map((block) => block.text);
  for (const message of body.messages) {
    const blocks = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
    for (const block of blocks) {
      if (typeof block.text === "string") texts.push(block.text);
      if (typeof block.content === "string") texts.push(block.content);
      if (Array.isArray(block.content)) texts.push(...block.content.flatMap((part) => (typeof part.text === "string" ? [part.text] : [])));
    }
  }
  return texts;
}

/**
 * The result Claude Code sent back for the model's tool call `toolUseId` (its text, and whether it
 * is an error), in the first request that holds it; null when none does.
 */
export function toolResult(requests: RecordedRequest[], toolUseId: string): { text: string; isError: boolean } | null {
  for (const body of messagesRequests(requests)) {
    for (const message of body.messages) {
      if (typeof message.content === "string") continue;
      const result = message.content.find((block: RequestContentBlock) => block.type === "tool_result" && block.tool_use_id === toolUseId);
      if (result === undefined) continue;
      const content = result.content;
      return { text: typeof content === "string" ? content : (content ?? []).map((part) => part.text ?? "").join(""), isError: result.is_error === true };
    }
  }
  return null;
}

/** How Claude Code introduces a hook's `additionalContext` to the model (`SessionStart`, `UserPromptSubmit`, …). */
export function hookContextMarker(hookEventName: string): string {
  return `${hookEventName} hook additional context: `;
}

/**
 * The text after the hook's marker, to the end of its block, in the first Messages request that
 * holds it; null when none does. Claude Code may append its own sections to the same block (after
 * SessionStart's context, the environment), so compare the start.
 */
export function hookContextText(requests: RecordedRequest[], hookEventName: string): string | null {
  const marker = hookContextMarker(hookEventName);
  for (const body of messagesRequests(requests)) {
    for (const text of requestTexts(body)) {
      const index = text.indexOf(marker);
      if (index !== -1) return text.slice(index + marker.length);
    }
  }
  return null;
}

const PLATFORM_BINARIES: Record<string, string> = {
  "darwin-arm64": "claude",
  "darwin-x64": "claude",
  "linux-x64": "claude",
  "linux-arm64": "claude",
  "linux-x64-musl": "claude",
  "linux-arm64-musl": "claude",
  "win32-x64": "claude.exe",
  "win32-arm64": "claude.exe",
};

/** The suffix of Claude Code's platform package for this machine, as its own installer computes it. */
function platformKey(): string {
  if (process.platform !== "linux") return `${process.platform}-${process.arch}`;
  const report = process.report.getReport() as { header?: { glibcVersionRuntime?: string } };
  return `linux-${process.arch}${report.header?.glibcVersionRuntime === undefined ? "-musl" : ""}`;
}

/**
 * The path of Claude Code's native binary. It ships in a platform package, an optional dependency
 * of `@anthropic-ai/claude-code` whose postinstall (not run under pnpm) would copy it over a
 * placeholder; pnpm links the platform package beside the wrapper in its own store folder, so it
 * is resolved from the wrapper's real directory. Throws, saying what to do, when it is missing.
 */
export function claudeBinary(): string {
  const fromHere = createRequire(import.meta.url);
  let wrapperManifest: string;
  try {
    wrapperManifest = realpathSync(fromHere.resolve("@anthropic-ai/claude-code/package.json"));
  } catch (error) {
    throw new Error("@anthropic-ai/claude-code, a devDependency of the repository root, is not installed: run npx -y pnpm@10.34.8 install", { cause: error });
  }
  const wrapper = JSON.parse(readFileSync(wrapperManifest, "utf8")) as { version: string };
  const key = platformKey();
  const binaryName = PLATFORM_BINARIES[key];
  if (binaryName === undefined) throw new Error(`Claude Code ${wrapper.version} has no native binary for ${key}`);
  const platformPackage = `@anthropic-ai/claude-code-${key}`;
  let platformManifest: string;
  try {
    platformManifest = createRequire(wrapperManifest).resolve(`${platformPackage}/package.json`);
  } catch (error) {
    throw new Error(`${platformPackage}, the native binary of @anthropic-ai/claude-code ${wrapper.version}, is not installed (was the install run with --no-optional?): run npx -y pnpm@10.34.8 install`, { cause: error });
  }
  const binary = join(dirname(platformManifest), binaryName);
  if (!existsSync(binary)) throw new Error(`${platformPackage} has no ${binaryName} (${binary}): reinstall with npx -y pnpm@10.34.8 install`);
  return binary;
}

export interface RunClaudeOptions {
  /** Where ANTHROPIC_BASE_URL points (and the proxy for anything else); its requests during the run are returned. */
  api: MockMessagesApi;
  /** The temporary HOME: settings, plugins, sessions and the global store live under it. */
  home: string;
  cwd: string;
  /** Runs `claude -p PROMPT --output-format json ...args`; without it, `claude ...args` (e.g. `plugin install`). */
  prompt?: string;
  args?: string[];
  env?: Record<string, string>;
  timeoutMs?: number;
}

/** The `--output-format json` result of a prompt, as far as the tests read it. */
export interface ClaudeResult {
  type: "result";
  subtype: string;
  is_error: boolean;
  result?: string;
  num_turns: number;
  [key: string]: unknown;
}

export interface ClaudeRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The requests the mock received during this run. */
  requests: RecordedRequest[];
  /** stdout parsed, when a prompt was given and it is JSON. */
  result: ClaudeResult | null;
}

/**
 * Runs the real Claude Code binary as a user would from `cwd`, with a clean env: a temporary HOME,
 * the mock as ANTHROPIC_BASE_URL, a dummy API key, no stdin, no auto-update, telemetry or other
 * nonessential traffic, and the mock as HTTP(S) proxy, so that nothing leaves 127.0.0.1 (as in CI)
 * without it being recorded. The node that runs the tests comes first on PATH, for `node` hooks.
 *
 * ```ts
 * const run = await runClaude({ api, home, cwd: project, prompt: "hello" });
 * run.result?.result; // "Hello from the mock Messages API."
 * ```
 */
export function runClaude(options: RunClaudeOptions): Promise<ClaudeRun> {
  const binary = claudeBinary();
  const args = options.prompt === undefined ? (options.args ?? []) : ["-p", options.prompt, "--output-format", "json", ...(options.args ?? [])];
  const env = {
    PATH: [dirname(process.execPath), process.env.PATH ?? ""].join(delimiter),
    HOME: options.home,
    ANTHROPIC_BASE_URL: options.api.baseUrl,
    ANTHROPIC_API_KEY: "sk-ant-test-dummy-key",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    HTTP_PROXY: options.api.baseUrl,
    HTTPS_PROXY: options.api.baseUrl,
    NO_PROXY: "127.0.0.1,localhost",
    ...options.env,
  };
  const first = options.api.requests.length;
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { cwd: options.cwd, env, stdio: ["ignore", "pipe", "pipe"], timeout: options.timeoutMs ?? 30_000, killSignal: "SIGKILL" });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code, signal) => {
      const result = options.prompt === undefined ? null : (parseJson(stdout.trim()) as ClaudeResult | string | undefined);
      resolve({ code, signal, stdout, stderr, requests: options.api.requests.slice(first), result: typeof result === "object" ? result : null });
    });
  });
}

/**
 * A temporary HOME, a git repository holding a copy of the demo project on a branch about the work
 * at hand (`fix/integration-tests-mock-the-database`: the session start injects what the bank says
 * of it), and the mock API, closed when the test ends.
 */
export async function demoWorkspace(): Promise<{ home: string; project: string; api: MockMessagesApi }> {
  const base = makeTempDir("iflow-memory-claude-");
  const home = join(base, "home");
  mkdirSync(home);
  const project = join(base, "demo-project");
  cpSync(join(REPO_ROOT, "examples/demo-project"), project, { recursive: true });
  const git = (...args: string[]) => execFileSync("git", args, { cwd: project, env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });
  git("init", "--quiet", "--initial-branch", "main");
  git("add", "-A");
  git("commit", "--quiet", "-m", "Demo project");
  git("checkout", "--quiet", "-b", "fix/integration-tests-mock-the-database");
  const api = await startMockMessagesApi();
  onTestFinished(() => api.close());
  return { home, project, api };
}
