import { serializeEntry, type Entry } from "@iflow-memory/parser";
import { readFeedback, readInjectionHistory } from "@iflow-memory/store";
import { html, type SafeHtml } from "../html.js";
import { entryProjects, metadataValue } from "./entry-facts.js";
import { listedEntries } from "./listed-entries.js";
import { layout, tokenField, type PageContext } from "./layout.js";

/**
 * An entry's page: each copy of it (local, global) in full with its provenance, when and in which
 * sessions it was injected (the injection history), readers' feedback on it and how effective
 * that makes it, a feedback form, and, for the global copy, the changes a user can make — forget,
 * contest, re-tag. Null when no entry has the hash.
 */
export async function entryPage(context: PageContext, hash: string, notice?: { kind: "done" | "error"; text: string }): Promise<SafeHtml | null> {
  const { entries } = await listedEntries(context);
  const copies = entries.filter((entry) => entry.contentHash === hash);
  if (copies.length === 0) return null;
  const { records } = await readInjectionHistory(context.globalStoreDir, { entry: hash });
  const sessions = new Set(records.map((record) => record.session ?? "(no session)"));
  const votes = readFeedback(context.globalStoreDir).get(hash);
  const total = votes === undefined ? 0 : votes.helpful + votes.unhelpful;
  const first = copies[0]!;
  const body = html`<h1>${first.name}</h1>
<p class="meta"><code>sha256:${hash}</code> · ${first.category}</p>
${copies.map((entry) => copySection(context, entry))}
<section aria-labelledby="feedback">
<h2 id="feedback">Feedback and effectiveness</h2>
<p>${votes === undefined || total === 0 ? "No feedback yet." : `${votes.helpful} helpful, ${votes.unhelpful} not helpful: ${Math.round((100 * votes.helpful) / total)}% helpful (last vote ${votes.last}). Feedback lifts or sinks the entry in every ranking.`}</p>
${votes === undefined || votes.notes.length === 0 ? "" : html`<ul>${votes.notes.map((note) => html`<li>${note.ts}: ${note.helpful ? "helpful" : "not helpful"} — ${note.note}</li>`)}</ul>`}
<form method="post" action="/entry/${hash}/feedback" class="actions">${tokenField(context)}
<div><label for="note">Note (optional)</label><input id="note" name="note" type="text" maxlength="500" autocomplete="off"></div>
<button type="submit" name="helpful" value="yes">Helpful</button>
<button type="submit" name="helpful" value="no">Not helpful</button>
</form>
</section>
<section aria-labelledby="injections">
<h2 id="injections">Injections</h2>
<p>${records.length === 0 ? "Never injected, as far as the injection history goes." : `Injected ${records.length} time${records.length === 1 ? "" : "s"} in ${sessions.size} session${sessions.size === 1 ? "" : "s"}.`}</p>
${records.length === 0 ? "" : html`<div class="table"><table>
<caption class="meta">When and where it was injected, newest first</caption>
<thead><tr><th scope="col">When (UTC)</th><th scope="col">Session</th><th scope="col">Project</th><th scope="col">Event</th><th scope="col">Why</th></tr></thead>
<tbody>${records.slice(0, 100).map((record) => {
    const item = record.entries.find((entry) => entry.hash === hash);
    const why = record.ranking === "relevance" ? (item?.matched === undefined || item.matched.length === 0 ? "relevance (with a contested partner)" : `matched ${item.matched.join(", ")}`) : "today's order";
    return html`<tr><td>${record.time.replace("T", " ").replace("Z", "")}</td><td>${record.session === null ? "(none)" : html`<a href="/sessions?session=${encodeURIComponent(record.session)}"><code>${record.session}</code></a>`}</td><td>${record.project}</td><td>${record.event}${record.query === undefined ? "" : html` “${record.query}”`}</td><td>${why}</td></tr>`;
  })}</tbody>
</table></div>`}
</section>`;
  return layout(context, { title: first.name, current: "", ...(notice === undefined ? {} : { notice }), body });
}

function copySection(context: PageContext, entry: Entry): SafeHtml {
  const source = metadataValue(entry, "Source");
  const tagged = entry.tags.map((tag) => tag.toLowerCase());
  return html`<section aria-label="The ${entry.scope} copy">
<h2>The ${entry.scope} copy</h2>
<pre class="entry">${serializeEntry(entry)}</pre>
<dl class="facts">
<dt>File</dt><dd><code>${entry.origin.path}:${entry.origin.line}</code></dd>
<dt>Observation count</dt><dd>${entry.observationCount}</dd>
<dt>Confidence</dt><dd>${entry.confidence}</dd>
<dt>Last observed</dt><dd>${entry.lastObserved ?? "not recorded"}</dd>
<dt>Projects</dt><dd>${entryProjects(entry, context.project).join(", ") || "none recorded"}</dd>
${source === undefined ? "" : html`<dt>Source</dt><dd>${source}</dd>`}
<dt>Tags</dt><dd>${entry.tags.length === 0 ? "none" : entry.tags.join(", ")}</dd>
</dl>
${entry.scope !== "global" ? "" : html`<h3>Curate</h3>
<div class="actions">
<form method="post" action="/entry/${entry.contentHash}/tag">${tokenField(context)}
<input type="hidden" name="reach" value="${tagged.includes("universal") ? "project-specific" : "universal"}">
<button type="submit">${tagged.includes("universal") ? "Tag project-specific" : "Tag universal"}</button>
</form>
<form method="post" action="/entry/${entry.contentHash}/contest">${tokenField(context)}
<div><label for="other-${entry.contentHash}">Contradicts the entry (hash)</label><input id="other-${entry.contentHash}" name="other" type="text" required pattern="(sha256:)?[0-9a-fA-F]{4,16}" autocomplete="off"></div>
<button type="submit">Contest</button>
</form>
<form method="post" action="/entry/${entry.contentHash}/forget">${tokenField(context)}
<button type="submit" class="danger">Forget (move to the archive)</button>
</form>
</div>`}
</section>`;
}
