import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { join } from "node:path";
import { createMemorySearcher, DEFAULT_LESSONS_DIR, projectName, type HealthCheck } from "@iflow-memory/store";
import { checkRequest, tokenCookieName } from "./check-request.js";
import { handleRequest, type ViewerResponse } from "./handle-request.js";
import { listedEntries } from "./pages/listed-entries.js";

export interface ViewerOptions {
  projectRoot: string;
  globalStoreDir: string;
  /** The lessons folder (default: the project's `.archeflow/memory`). */
  lessonsDir?: string;
  /** 0 (the default): a free port. */
  port?: number;
  /** The run's token (default: 32 random bytes); tests give their own. */
  token?: string;
  /**
   * Checks of the installation the doctor page shows after the memory's, as `iflow-memory doctor`
   * does (`iflow-memory ui` passes the Claude Code install check, which the viewer cannot make).
   */
  moreChecks?: () => HealthCheck[] | Promise<HealthCheck[]>;
}

export interface RunningViewer {
  /** The address to open: the run's token in it sets the cookie that every later request carries. */
  url: string;
  port: number;
  /** Stops listening and ends open connections. */
  close(): Promise<void>;
}

/** A form's body at most: the viewer's forms send a hash, a word and the token. */
const MAX_FORM_BYTES = 16 * 1024;

// Every answer: no script, no frame, nothing remote, nothing cached, no referrer to another site.
const SECURITY_HEADERS = {
  "content-security-policy": "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  // same-origin, not no-referrer: with no-referrer, Chromium sends a form's POST with "Origin: null".
  "referrer-policy": "same-origin",
  "cache-control": "no-store",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
};

/**
 * Starts the local viewer on 127.0.0.1 (never another interface): every request needs the run's
 * token (the printed URL's sets a cookie), a Host of 127.0.0.1 or localhost on its port, and a
 * change a POST from its own page (`checkRequest`). Pages are rendered on the server with every
 * text escaped; no script, no remote asset.
 *
 * @example
 * const viewer = await startViewer({ projectRoot: "/work/webshop", globalStoreDir: "/home/ada/.claude/iflow/memory" });
 * console.log(viewer.url); // "http://127.0.0.1:41237/?token=…"
 * await viewer.close();
 */
export async function startViewer(options: ViewerOptions): Promise<RunningViewer> {
  const token = options.token ?? randomBytes(32).toString("base64url");
  const context = {
    projectRoot: options.projectRoot,
    project: projectName(options.projectRoot),
    globalStoreDir: options.globalStoreDir,
    lessonsDir: options.lessonsDir ?? join(options.projectRoot, DEFAULT_LESSONS_DIR),
    token,
    searcher: createMemorySearcher({ projectRoot: options.projectRoot, globalStoreDir: options.globalStoreDir }),
    ...(options.moreChecks === undefined ? {} : { moreChecks: options.moreChecks }),
  };
  let port = options.port ?? 0;
  const server = createServer((request, response) => {
    serve(request, response).catch((error: unknown) => {
      if (!response.headersSent) send(response, { status: 500, headers: { "content-type": "text/plain; charset=utf-8" }, body: `the viewer failed: ${(error as Error).message}\n` });
      else response.destroy();
    });
  });

  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const head = { method: request.method ?? "GET", url: request.url ?? "/", headers: request.headers };
    const verdict = checkRequest(head, { token, port });
    if (verdict.kind === "refuse") {
      request.resume();
      return send(response, { status: verdict.status, headers: { "content-type": "text/plain; charset=utf-8" }, body: `refused: ${verdict.reason}\n` });
    }
    if (verdict.kind === "set-cookie") {
      return send(response, { status: 303, headers: { location: verdict.location, "set-cookie": `${tokenCookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/` }, body: "" });
    }
    const url = new URL(head.url, `http://127.0.0.1:${port}`);
    if (head.method === "POST") {
      const type = request.headers["content-type"] ?? "";
      if (!type.startsWith("application/x-www-form-urlencoded")) {
        request.resume();
        return send(response, { status: 415, headers: { "content-type": "text/plain; charset=utf-8" }, body: "refused: a change is sent as a form\n" });
      }
      const body = await readBody(request);
      if (body === null) return send(response, { status: 413, headers: { "content-type": "text/plain; charset=utf-8" }, body: "refused: the form is too large\n" });
      return send(response, await handleRequest(context, { method: "POST", url, form: new URLSearchParams(body) }));
    }
    const answer = await handleRequest(context, { method: head.method === "HEAD" ? "HEAD" : "GET", url });
    return send(response, head.method === "HEAD" ? { ...answer, body: "" } : answer);
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  port = typeof address === "object" && address !== null ? address.port : port;
  // Read the entries while the user opens the page: its first view is then not a parse of the bank.
  listedEntries(context).catch(() => undefined);
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function send(response: ServerResponse, answer: ViewerResponse): void {
  response.writeHead(answer.status, { ...SECURITY_HEADERS, ...answer.headers });
  response.end(answer.body);
}

function readBody(request: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_FORM_BYTES) {
        resolve(null);
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}
