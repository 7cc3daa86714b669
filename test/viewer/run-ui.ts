import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, cpSync, readFileSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { CLI_BIN, copyCorpus, CORPORA_DIR, HOOK_BIN, makeTempDir, PROMPT_HOOK_BIN, runNode } from "@iflow-memory/test-utils";

/** The real bank and the global store example, with an entry whose text is HTML, some history and some lessons. */
export async function realBank() {
  const base = makeTempDir();
  const projectRoot = copyCorpus("iflow-kb-2026-04", base);
  const store = join(base, "store");
  cpSync(join(CORPORA_DIR, "global-store-example"), store, { recursive: true });
  chmodSync(store, 0o700);
  const heuristics = join(projectRoot, "docs/knowledge-bank/heuristics.md");
  writeFileSync(heuristics, `${readFileSync(heuristics, "utf8")}\n### Heuristic: Markup Is Text\nAn entry may say <img src=x onerror="document.title='pwned'"> or <script>document.title='pwned'</script> and it is shown, never run.\n- Observation count: 1\n`);
  const env = { HOME: join(base, "home"), IFLOW_MEMORY_HOME: store };
  await runNode(HOOK_BIN, [], { env, stdin: JSON.stringify({ session_id: "5f0c2a9e-demo", cwd: projectRoot, source: "startup" }) });
  await runNode(PROMPT_HOOK_BIN, [], { env, stdin: JSON.stringify({ session_id: "5f0c2a9e-demo", cwd: projectRoot, prompt: "the embedding call times out; add retry with backoff" }) });
  const lessons = join(projectRoot, ".archeflow/memory");
  await runNode(CLI_BIN, ["lessons", "extract", join(CORPORA_DIR, "archeflow/scored-events.jsonl"), "--dir", lessons], { env });
  await runNode(CLI_BIN, ["lessons", "add", "User prefers one bundled PR over many small ones", "--dir", lessons], { env });
  return { base, projectRoot, store, env };
}

/** `iflow-memory ui` as a user runs it: the first line of stdout is the address. */
export async function startUi(args: string[], env: Record<string, string>): Promise<{ url: string; port: number; token: string; process: ChildProcess; startedInMs: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [CLI_BIN, "ui", ...args], { env: { PATH: process.env.PATH ?? "", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  const url = await new Promise<string>((resolve, reject) => {
    let text = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      text += chunk;
      if (text.includes("\n")) resolve(text.slice(0, text.indexOf("\n")));
    });
    child.on("exit", (code) => reject(new Error(`ui exited with ${code} before printing its address`)));
  });
  const startedInMs = performance.now() - started;
  const parsed = new URL(url);
  return { url, port: Number(parsed.port), token: parsed.searchParams.get("token")!, process: child, startedInMs };
}

export function stopUi(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.on("exit", (code) => resolve(code));
    child.kill("SIGTERM");
  });
}

/** A request with exactly these headers (Host included), as no browser would send it. */
export function rawRequest(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: "127.0.0.1", port, method, path, headers, setHost: false }, (response) => {
      let text = "";
      response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}
