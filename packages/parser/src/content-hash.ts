import { createHash } from "node:crypto";
import { collapsePythonWhitespace } from "./python-whitespace.js";

/**
 * The content hash of an entry's description: SHA-256 of the normalised text, first 16 hex
 * characters, byte-identical to Python's
 * `hashlib.sha256(" ".join(text.lower().strip().split()).encode()).hexdigest()[:16]`.
 *
 * @example
 * hashContent("Breaking a single file modification into many small separate tasks.");
 * // "2822c8d1d1ca7a22"
 */
export function hashContent(text: string): string {
  const normalised = collapsePythonWhitespace(text.toLowerCase());
  return createHash("sha256").update(normalised, "utf8").digest("hex").slice(0, 16);
}
