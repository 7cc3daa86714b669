import { hashContent, type Category, type Confidence, type Entry, type Lesson } from "@iflow-memory/parser";

const CATEGORY: Record<string, Category> = { anti_pattern: "anti-patterns", pattern: "patterns", preference: "heuristics", archetype_hint: "heuristics" };
const CONFIDENCE: Record<string, Confidence> = { bug: "high", critical: "high", error: "high", warning: "medium" };

/**
 * A lesson as a memory entry, so that ranking treats both alike: anti-patterns stay
 * anti-patterns, patterns patterns, preferences and archetype hints become heuristics; the
 * frequency is the observation count, the severity the confidence (bug → high, warning → medium,
 * else low), `ts` the last observation.
 *
 * @example
 * lessonToEntry(lesson, { path: ".archeflow/memory/lessons.jsonl", line: 1 }).observationCount; // lesson.frequency
 */
export function lessonToEntry(lesson: Lesson, origin: { path: string; line: number }): Entry {
  const category = CATEGORY[lesson.type] ?? "patterns";
  const prefix = { "anti-patterns": "Anti-Pattern", heuristics: "Heuristic", patterns: "Pattern" }[category];
  const metadata: Record<string, string> = {
    "Lesson id": lesson.id,
    Source: lesson.source,
    "Observation count": String(lesson.frequency),
    "Last observed": lesson.ts,
    Tags: lesson.tags.join(", "),
    Domain: lesson.domain,
  };
  const name = lesson.description.length > 80 ? `${lesson.description.slice(0, 79)}…` : lesson.description;
  return {
    name,
    headerLine: `### ${prefix}: ${name}`,
    category,
    description: lesson.description,
    metadataText: Object.entries(metadata).map(([key, value]) => `- ${key}: ${value}`).join("\n"),
    metadata,
    observationCount: lesson.frequency,
    confidence: CONFIDENCE[lesson.severity.toLowerCase()] ?? "low",
    lastObserved: lesson.ts === "" ? null : lesson.ts,
    tags: [...lesson.tags],
    filePosition: origin.line,
    contentHash: hashContent(lesson.description),
    scope: "local",
    origin,
  };
}
