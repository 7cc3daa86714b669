import { contestGlobalEntries, forgetGlobalEntry, recordFeedback, StoreError, tagGlobalEntry } from "@iflow-memory/store";
import { sameToken } from "./check-request.js";
import { html, type SafeHtml } from "./html.js";
import { doctorPage } from "./pages/doctor-page.js";
import { entryPage } from "./pages/entry-page.js";
import { layout, type PageContext } from "./pages/layout.js";
import { lessonsPage } from "./pages/lessons-page.js";
import { memoryPage } from "./pages/memory-page.js";
import { sessionsPage } from "./pages/sessions-page.js";
import { STYLESHEET } from "./style.js";

/** A request that passed `checkRequest`: its method, target and (for a POST) its form fields. */
export interface ViewerRequest {
  method: "GET" | "HEAD" | "POST";
  url: URL;
  form?: URLSearchParams;
}

/** What to answer. */
export interface ViewerResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

type Notice = { kind: "done" | "error"; text: string };


/**
 * Answers a request the gate let through: the pages (GET) and the changes (POST, with the run's
 * token in the form). Every read and change goes through the store's functions — the same ones
 * as the CLI's `list`, `search`, `history`, `forget`, `contest`, `tag`, `feedback` and `doctor`.
 *
 * @example
 * await handleRequest(context, { method: "GET", url: new URL("http://127.0.0.1:4567/?q=retry") });
 * // { status: 200, headers: { "content-type": "text/html; charset=utf-8" }, body: "<!doctype html>…" }
 */
export async function handleRequest(context: PageContext, request: ViewerRequest): Promise<ViewerResponse> {
  const path = request.url.pathname;
  const query = request.url.searchParams;
  if (request.method === "POST") return change(context, path, request.form ?? new URLSearchParams());
  if (path === "/style.css") return { status: 200, headers: { "content-type": "text/css; charset=utf-8" }, body: STYLESHEET };
  if (path === "/") return page(await memoryPage(context, query, doneNotice(query)));
  if (path === "/sessions") return page(await sessionsPage(context, query));
  if (path === "/lessons") return page(await lessonsPage(context));
  if (path === "/doctor") return page(await doctorPage(context));
  const entry = /^\/entry\/([0-9a-f]{16})$/.exec(path);
  if (entry !== null) {
    const body = await entryPage(context, entry[1]!, doneNotice(query));
    return body === null ? notFound(context, `No entry has the hash sha256:${entry[1]!}; it may have been forgotten.`) : page(body);
  }
  return notFound(context, "There is no such page here.");
}

async function change(context: PageContext, path: string, form: URLSearchParams): Promise<ViewerResponse> {
  if (!sameToken(form.get("token") ?? "", context.token)) return { status: 403, headers: { "content-type": "text/plain; charset=utf-8" }, body: "refused: the form did not carry this run's token\n" };
  const action = /^\/entry\/([0-9a-f]{16})\/(forget|contest|tag|feedback)$/.exec(path);
  if (action === null) return notFound(context, "There is no such change here.");
  const [, hash, verb] = action as unknown as [string, string, string];
  try {
    if (verb === "forget") {
      const entry = await forgetGlobalEntry(context.globalStoreDir, hash);
      return redirect(`/?${new URLSearchParams({ done: "forgotten", hash, name: entry.name }).toString()}`);
    }
    if (verb === "contest") {
      const other = (form.get("other") ?? "").trim();
      const [, b] = await contestGlobalEntries(context.globalStoreDir, hash, other);
      return redirect(`/entry/${hash}?${new URLSearchParams({ done: "contested", name: b.name }).toString()}`);
    }
    if (verb === "feedback") {
      const helpful = form.get("helpful");
      if (helpful !== "yes" && helpful !== "no") return { status: 400, headers: { "content-type": "text/plain; charset=utf-8" }, body: "refused: helpful must be yes or no\n" };
      const note = (form.get("note") ?? "").trim();
      await recordFeedback({ globalStoreDir: context.globalStoreDir, projectRoot: context.projectRoot, hash, helpful: helpful === "yes", ...(note === "" ? {} : { note }) });
      return redirect(`/entry/${hash}?${new URLSearchParams({ done: helpful === "yes" ? "helpful" : "unhelpful" }).toString()}`);
    }
    const reach = form.get("reach");
    if (reach !== "universal" && reach !== "project-specific") return { status: 400, headers: { "content-type": "text/plain; charset=utf-8" }, body: "refused: reach must be universal or project-specific\n" };
    const { changed } = await tagGlobalEntry(context.globalStoreDir, hash, reach);
    return redirect(`/entry/${hash}?${new URLSearchParams({ done: changed ? "tagged" : "tagged-already", reach }).toString()}`);
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    const notice: Notice = { kind: "error", text: `Not done: ${error.message}` };
    const body = await entryPage(context, hash, notice);
    return { ...page(body ?? (await memoryPage(context, new URLSearchParams(), notice))), status: 409 };
  }
}

// What a change's redirect says it did; the names come from the store, through the user's own browser.
function doneNotice(query: URLSearchParams): Notice | undefined {
  const name = query.get("name") ?? "";
  switch (query.get("done")) {
    case "forgotten":
      return { kind: "done", text: `Forgot “${name}” (sha256:${query.get("hash") ?? ""}): it is in the store's .archive.md, no longer injected.` };
    case "contested":
      return { kind: "done", text: `Contested with “${name}”: each is now injected with the other.` };
    case "helpful":
      return { kind: "done", text: "Recorded: helpful. It now ranks a little higher wherever it matches." };
    case "unhelpful":
      return { kind: "done", text: "Recorded: not helpful. It now ranks a little lower wherever it matches." };
    case "tagged":
      return { kind: "done", text: `Tagged ${query.get("reach") ?? ""}.` };
    case "tagged-already":
      return { kind: "done", text: `Tagged ${query.get("reach") ?? ""} already; nothing changed.` };
    default:
      return undefined;
  }
}

function page(body: SafeHtml): ViewerResponse {
  return { status: 200, headers: { "content-type": "text/html; charset=utf-8" }, body: body.text };
}

function redirect(location: string): ViewerResponse {
  return { status: 303, headers: { location }, body: "" };
}

function notFound(context: PageContext, text: string): ViewerResponse {
  return { ...page(layout(context, { title: "Not found", current: "", body: html`<h1>Not found</h1><p>${text}</p><p><a href="/">Back to the memory</a></p>` })), status: 404 };
}

