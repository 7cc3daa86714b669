import { CATEGORIES, type Entry } from "@iflow-memory/parser";
import { html, type SafeHtml } from "../html.js";
import { entryProjects, excerpt } from "./entry-facts.js";
import { listedEntries } from "./listed-entries.js";
import { layout, type PageContext } from "./layout.js";

/** Entries on one page of the memory list. */
export const PAGE_SIZE = 50;

/**
 * The memory page: local and global entries in injection order, or, with a search, ranked as
 * the hooks rank them (the store's searcher: same ranking, same relevance floor, same feedback); filtered
 * by category, scope, project and tag; a page of `PAGE_SIZE` at a time.
 */
export async function memoryPage(context: PageContext, query: URLSearchParams, notice?: { kind: "done" | "error"; text: string }): Promise<SafeHtml> {
  const search = (query.get("q") ?? "").trim();
  const filters = { category: query.get("category") ?? "", scope: query.get("scope") ?? "", project: query.get("project") ?? "", tag: query.get("tag") ?? "" };
  const { entries: all, warnings } = await listedEntries(context);
  let items: Array<{ entry: Entry; matched?: string[] }> = all.map((entry) => ({ entry }));
  if (search !== "") {
    const { results } = await context.searcher.search(search, { limit: -1, scope: "all" });
    items = results.map((result) => ({ entry: result.entry, matched: result.matchedTerms }));
  }
  const shown = items.filter(
    ({ entry }) =>
      (filters.category === "" || entry.category === filters.category) &&
      (filters.scope === "" || entry.scope === filters.scope) &&
      (filters.project === "" || entryProjects(entry, context.project).includes(filters.project)) &&
      (filters.tag === "" || entry.tags.includes(filters.tag)),
  );
  const pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
  const page = Math.min(pages, Math.max(1, Number.parseInt(query.get("page") ?? "1", 10) || 1));
  const projects = [...new Set(all.flatMap((entry) => entryProjects(entry, context.project)))].sort();
  const tags = [...new Set(all.flatMap((entry) => entry.tags))].sort();
  const link = (target: number) => {
    const parameters = new URLSearchParams([...Object.entries({ q: search, ...filters }).filter(([, value]) => value !== ""), ["page", String(target)]]);
    return `/?${parameters.toString()}`;
  };
  const select = (name: string, label: string, options: readonly string[], value: string) => html`<div>
<label for="${name}">${label}</label>
<select id="${name}" name="${name}"><option value="">All</option>${options.map((option) => html`<option${option === value ? html` selected` : ""}>${option}</option>`)}</select>
</div>`;
  const summary =
    search === ""
      ? `${shown.length} of ${all.length} entries, in injection order`
      : `${shown.length} entr${shown.length === 1 ? "y matches" : "ies match"} “${search}”, best first, as the hooks rank them (entries below the relevance floor are left out)`;
  const body = html`<h1>Memory</h1>
<form class="filters" method="get" action="/" role="search" aria-label="Search and filter entries">
<div class="search"><label for="q">Search, as the hooks rank</label><input id="q" name="q" type="search" value="${search}" placeholder="e.g. retry idempotency checkout"></div>
${select("category", "Category", CATEGORIES, filters.category)}
${select("scope", "Scope", ["local", "global"], filters.scope)}
${select("project", "Project", projects, filters.project)}
${select("tag", "Tag", tags, filters.tag)}
<div><button type="submit">Show</button></div>
</form>
<p class="count" role="status">${summary}${pages > 1 ? ` — page ${page} of ${pages}` : ""}</p>
${warnings.length === 0 ? "" : html`<details><summary>${warnings.length} warning${warnings.length === 1 ? "" : "s"} while reading</summary><ul>${warnings.map((warning) => html`<li>${warning}</li>`)}</ul></details>`}
<ol class="entries">${shown.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE).map(({ entry, matched }) => entryItem(entry, matched))}</ol>
${pages > 1 ? html`<nav class="pages" aria-label="Result pages">${page > 1 ? html`<a href="${link(page - 1)}" rel="prev">← Previous</a>` : ""}${page < pages ? html`<a href="${link(page + 1)}" rel="next">Next →</a>` : ""}</nav>` : ""}`;
  return layout(context, { title: "Memory", current: "/", ...(notice === undefined ? {} : { notice }), body });
}

function entryItem(entry: Entry, matched: string[] | undefined): SafeHtml {
  return html`<li>
<a class="name" href="/entry/${entry.contentHash}">${entry.name}</a>
<div class="meta">${entry.category} · ${entry.scope} · observed ×${entry.observationCount} · ${entry.confidence} confidence${entry.tags.map((tag) => html` <span class="tag">${tag}</span>`)}${matched === undefined ? "" : html` · matched: ${matched.join(", ")}`}</div>
<p class="desc">${excerpt(entry.description)}</p>
</li>`;
}
