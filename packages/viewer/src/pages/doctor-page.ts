import { diagnoseMemory } from "@iflow-memory/store";
import { html, type SafeHtml } from "../html.js";
import { layout, type PageContext } from "./layout.js";

/** The doctor page: `iflow-memory doctor`'s checks, each with its status in words. */
export async function doctorPage(context: PageContext): Promise<SafeHtml> {
  const checks = [...(await diagnoseMemory({ projectRoot: context.projectRoot, globalStoreDir: context.globalStoreDir })), ...((await context.moreChecks?.()) ?? [])];
  const problems = checks.filter((check) => check.status !== "ok").length;
  const body = html`<h1>Doctor</h1>
<p class="count">${problems === 0 ? "Every check passed." : `${problems} check${problems === 1 ? "" : "s"} found something.`}</p>
<ul class="entries">${checks.map(
    (check) => html`<li><span class="status ${check.status}">${check.status}</span> <strong>${check.name}</strong>${check.details.length === 0 ? "" : html`<ul>${check.details.map((detail) => html`<li>${detail}</li>`)}</ul>`}</li>`,
  )}</ul>`;
  return layout(context, { title: "Doctor", current: "/doctor", body });
}
