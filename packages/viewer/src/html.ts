/** Markup that is already safe: made only by `html` (whose values are escaped) or `unsafeRaw`. */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/**
 * Escapes text for HTML content and attribute values (quoted with "): what entries hold is
 * user-written markdown, and may hold HTML of its own.
 *
 * @example
 * escapeHtml('<img src=x onerror="alert(1)">'); // "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;"
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character]!);
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/**
 * A template of markup in which every value is escaped, unless it is markup itself (`SafeHtml`,
 * or an array of them); null, undefined and false render nothing.
 *
 * @example
 * html`<h1>${entry.name}</h1>${items.map((item) => html`<li>${item}</li>`)}`;
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let text = strings[0]!;
  values.forEach((value, index) => {
    text += render(value) + strings[index + 1]!;
  });
  return new SafeHtml(text);
}

function render(value: unknown): string {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(String(value));
}
