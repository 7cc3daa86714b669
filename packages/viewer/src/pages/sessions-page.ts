import { readInjectionHistory } from "@iflow-memory/store";
import { html, type SafeHtml } from "../html.js";
import { layout, type PageContext } from "./layout.js";

/** Injections on the sessions page at most. */
export const SESSIONS_PAGE_SIZE = 200;

/**
 * The sessions page: the recent injections of the history, newest first — session, time,
 * project, event, each entry injected and why (the terms relevance matched), characters.
 */
export async function sessionsPage(context: PageContext, query: URLSearchParams): Promise<SafeHtml> {
  const session = query.get("session") ?? "";
  const { records, warnings } = await readInjectionHistory(context.globalStoreDir, session === "" ? {} : { session });
  const shown = records.slice(0, SESSIONS_PAGE_SIZE);
  const body = html`<h1>Sessions</h1>
<p class="count">${session === "" ? "" : html`Session <code>${session}</code> (<a href="/sessions">all sessions</a>): `}${records.length === 0 ? "no injections recorded yet: the hooks record each session start and prompt recall." : `${records.length} injection${records.length === 1 ? "" : "s"}${records.length > shown.length ? `, the latest ${shown.length} shown` : ""}, newest first.`}</p>
${warnings.length === 0 ? "" : html`<ul>${warnings.map((warning) => html`<li>${warning}</li>`)}</ul>`}
${shown.map(
  (record) => html`<article class="injection" aria-label="${record.event} at ${record.time}">
<div><strong>${record.time.replace("T", " ").replace("Z", " UTC")}</strong> · ${record.session === null ? "no session id" : html`session <a href="/sessions?session=${encodeURIComponent(record.session)}"><code>${record.session}</code></a>`} · ${record.project} · ${record.event === "prompt" ? "prompt recall" : record.event === "search" ? "MCP search" : `session ${record.event}`}${record.event === "search" && record.agent === undefined ? "" : ` · ${agentLabel(record.agent)}`}${record.query === undefined ? "" : html` “${record.query}”`}</div>
<div class="meta">${record.entries.length} entr${record.entries.length === 1 ? "y" : "ies"}, ${record.chars} characters, ${record.ranking === "relevance" ? "chosen by relevance" : "in today's order"}</div>
<ul>${record.entries.map((entry) => html`<li><a href="/entry/${entry.hash}">${entry.name}</a>${entry.matched === undefined || entry.matched.length === 0 ? "" : html` <span class="meta">— matched ${entry.matched.join(", ")}</span>`}</li>`)}</ul>
</article>`,
)}`;
  return layout(context, { title: "Sessions", current: "/sessions", body });
}

// Records written before agents were told apart are Claude Code's; an MCP search names its client.
function agentLabel(agent: string | undefined): string {
  return agent === "codex" ? "Codex CLI" : agent === "gemini" ? "Gemini CLI" : agent === undefined || agent === "claude" ? "Claude Code" : agent;
}
