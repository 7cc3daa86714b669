/** A feature summary longer than this is cut at a word and ends with "…". */
export const MAX_SUMMARY_CHARS = 500;

/**
 * A feature spec's title — its first `# ` heading, a leading "Spec:", "Specification:" or
 * "Feature Specification:" removed — and its first paragraph of prose, whitespace collapsed, at
 * most `MAX_SUMMARY_CHARS` characters. Front matter, HTML comments, code blocks, tables, rules
 * and paragraphs made only of `**Key:** value` lines are passed over.
 *
 * @example
 * parseFeatureSpec("# Specification: Retries\n\n**Status:** Draft\n\n## Problem\n\nEmbedding calls hang.\n");
 * // { title: "Retries", summary: "Embedding calls hang." }
 */
export function parseFeatureSpec(text: string): { title: string | null; summary: string } {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let index = 0;
  if (lines[0]?.trim() === "---") {
    const end = lines.findIndex((line, position) => position > 0 && /^(?:---|\.\.\.)\s*$/.test(line));
    if (end !== -1) index = end + 1;
  }
  let title: string | null = null;
  let summary: string | null = null;
  let paragraph: string[] = [];
  const endParagraph = (): void => {
    if (summary === null && paragraph.length > 0 && !paragraph.every((line) => /^(?:[-*+]\s+)?\*\*[^*]+\*\*/.test(line) || /^\|/.test(line))) {
      summary = paragraph.map((line) => line.replace(/^>\s?/, "")).join(" ");
    }
    paragraph = [];
  };
  for (; index < lines.length && (title === null || summary === null); index += 1) {
    const line = lines[index]!.trim();
    const fence = /^(`{3,}|~{3,})/.exec(line);
    if (fence !== null) {
      endParagraph();
      const closing = fence[1]!;
      for (index += 1; index < lines.length && !lines[index]!.trim().startsWith(closing); index += 1);
      continue;
    }
    if (line.startsWith("<!--")) {
      endParagraph();
      while (index < lines.length && !lines[index]!.includes("-->")) index += 1;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading !== null) {
      endParagraph();
      if (title === null && heading[1] === "#") {
        // "Spec：", "Spec — …", "Spec – …" (escaped: the hook bundles stay ASCII, see commit-subject-topic.ts).
        title = heading[2]!.replace(/^(?:feature\s+)?spec(?:ification)?(?:\s*[:\uff1a]|\s+[\u2014\u2013-])\s*/i, "").trim() || null;
      }
      continue;
    }
    if (line === "" || /^(?:[-*_]\s*){3,}$/.test(line)) {
      endParagraph();
      continue;
    }
    paragraph.push(line);
  }
  endParagraph();
  return { title, summary: shorten((summary ?? "").replace(/\s+/g, " ").trim(), MAX_SUMMARY_CHARS) };
}

function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf(" ", max - 1);
  return `${text.slice(0, cut > max / 2 ? cut : max - 1).trimEnd()}…`;
}

