import { readEffectiveness, readLessons } from "@iflow-memory/store";
import { html, type SafeHtml } from "../html.js";
import { layout, type PageContext } from "./layout.js";

/** The lessons page: the project's cross-run lessons and how effective the audits found them. */
export async function lessonsPage(context: PageContext): Promise<SafeHtml> {
  const [{ lessons, archive, warnings }, effectiveness] = await Promise.all([readLessons(context.lessonsDir), readEffectiveness(context.lessonsDir)]);
  const byLesson = new Map(effectiveness.lessons.map((row) => [row.lesson_id, row]));
  const percent = (ratio: number | null) => (ratio === null ? "not audited" : `${Math.round(ratio * 100)}% helpful`);
  const body = html`<h1>Lessons</h1>
<p class="count">${lessons.length} lesson${lessons.length === 1 ? "" : "s"} in <code>${context.lessonsDir}</code>, ${archive.length} archived; audits: ${effectiveness.helpful} helpful, ${effectiveness.ineffective} ineffective (${percent(effectiveness.ratio)}).</p>
${warnings.length === 0 ? "" : html`<ul>${warnings.map((warning) => html`<li>${warning.path}:${warning.line}: ${warning.message}</li>`)}</ul>`}
${lessons.length === 0 ? html`<p>No lessons yet: <code>iflow-memory lessons extract</code> learns them from review findings.</p>` : html`<div class="table"><table>
<thead><tr><th scope="col">ID</th><th scope="col">Seen</th><th scope="col">Type</th><th scope="col">Domain</th><th scope="col">Description</th><th scope="col">Effectiveness</th></tr></thead>
<tbody>${lessons.map((lesson) => {
    const row = byLesson.get(lesson.id);
    return html`<tr><td><code>${lesson.id}</code></td><td>${lesson.frequency}×</td><td>${lesson.type}</td><td>${lesson.domain}</td><td>${lesson.description}</td><td>${row === undefined ? "not audited" : `${row.helpful} helpful, ${row.ineffective} ineffective`}</td></tr>`;
  })}</tbody>
</table></div>`}`;
  return layout(context, { title: "Lessons", current: "/lessons", body });
}
