// What both evaluations of this folder measure with: nDCG@k and Recall@k of a ranking against a
// context's grades, the words a context says in one text, and plain BM25 as the baseline.

/** nDCG@k of `ranking` (content hashes, best first) against `grades` (hash → 1 or 2); null without grades. */
export function ndcgAt(k, ranking, grades) {
  const gain = (grade) => 2 ** grade - 1;
  let dcg = 0;
  ranking.slice(0, k).forEach((hash, at) => (dcg += gain(grades.get(hash) ?? 0) / Math.log2(at + 2)));
  const ideal = [...grades.values()].sort((a, b) => b - a).slice(0, k);
  const idcg = ideal.reduce((sum, grade, at) => sum + gain(grade) / Math.log2(at + 2), 0);
  return idcg === 0 ? null : dcg / idcg;
}

/** The share of the graded entries in the first k of `ranking`; null without grades. */
export function recallAt(k, ranking, grades) {
  if (grades.size === 0) return null;
  const top = new Set(ranking.slice(0, k));
  return [...grades.keys()].filter((hash) => top.has(hash)).length / grades.size;
}

export const mean = (values) => (values.length === 0 ? Number.NaN : values.reduce((sum, value) => sum + value, 0) / values.length);

/** Everything a context says (prompt, branch, files, subjects, feature, phase) as one text. */
export function contextText(context) {
  const q = context.query;
  return [q.text, q.branch, ...(q.changedFiles ?? []), ...(q.commitSubjects ?? []), q.feature?.title, q.feature?.summary, q.phase].filter(Boolean).join(" ");
}

/**
 * Plain BM25 (k1 1.2, b 0.75) over each entry's whole text, words split on anything not a letter
 * or digit and lowercased — no stemming, no stop words, no fields, no floor: text → every entry
 * holding a word of it, best first (content hashes).
 */
export function plainBm25Ranker(candidates) {
  const tokens = (text) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const documents = candidates.map((entry) => tokens(`${entry.name}\n${entry.description}\n${entry.metadataText}`));
  const average = mean(documents.map((words) => words.length));
  const frequency = new Map();
  for (const words of documents) for (const word of new Set(words)) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  return (text) => {
    const terms = new Set(tokens(text));
    return documents
      .map((words, at) => {
        let score = 0;
        for (const term of terms) {
          const count = words.filter((word) => word === term).length;
          if (count === 0) continue;
          const df = frequency.get(term);
          score += (Math.log(1 + (candidates.length - df + 0.5) / (df + 0.5)) * count * 2.2) / (count + 1.2 * (0.25 + (0.75 * words.length) / average));
        }
        return { hash: candidates[at].contentHash, score };
      })
      .filter((item) => item.score > 0)
      .sort((a, b) => b.score - a.score)
      .map((item) => item.hash);
  };
}
