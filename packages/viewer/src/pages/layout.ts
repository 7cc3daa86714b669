import type { HealthCheck, MemorySearcher } from "@iflow-memory/store";
import { html, type SafeHtml } from "../html.js";

/** What every page is told: where it reads from, and the run's token for its forms. */
export interface PageContext {
  projectRoot: string;
  project: string;
  globalStoreDir: string;
  lessonsDir: string;
  /** The run's token: its forms send it back (a change needs it in the body as well as the cookie). */
  token: string;
  /** The store's searcher for the run: the hooks' ranking, its index kept until a file changes. */
  searcher: MemorySearcher;
  /** Checks the doctor page shows after the memory's (`ViewerOptions.moreChecks`). */
  moreChecks?: () => HealthCheck[] | Promise<HealthCheck[]>;
}

const PAGES = [
  { path: "/", title: "Memory" },
  { path: "/sessions", title: "Sessions" },
  { path: "/lessons", title: "Lessons" },
  { path: "/doctor", title: "Doctor" },
] as const;

/**
 * A whole page: the navigation, where the memory comes from, a notice (a change done, or one
 * refused) and the page's own content. No script, no remote asset: one stylesheet of its own.
 */
export function layout(context: PageContext, page: { title: string; current: string; notice?: { kind: "done" | "error"; text: string }; body: SafeHtml }): SafeHtml {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} · iflow-memory</title>
<link rel="stylesheet" href="/style.css">
</head>
<body>
<a class="skip" href="#main">Skip to the content</a>
<header class="top">
<p class="brand">iflow-memory</p>
<nav aria-label="Pages"><ul>${PAGES.map((item) => html`<li><a href="${item.path}"${item.path === page.current ? html` aria-current="page"` : ""}>${item.title}</a></li>`)}</ul></nav>
<p class="where">project <strong>${context.project}</strong> <span class="path">${context.projectRoot}</span> · global store <span class="path">${context.globalStoreDir}</span></p>
</header>
<main id="main" tabindex="-1">
${page.notice === undefined ? "" : html`<p class="notice ${page.notice.kind}" role="${page.notice.kind === "error" ? "alert" : "status"}">${page.notice.text}</p>`}
${page.body}
</main>
</body>
</html>
`;
}

/** The hidden field that carries the run's token in a form that changes something. */
export function tokenField(context: PageContext): SafeHtml {
  return html`<input type="hidden" name="token" value="${context.token}">`;
}
