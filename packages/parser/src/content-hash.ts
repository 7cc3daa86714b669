import * as crypto from "node:crypto";
import { collapsePythonWhitespace } from "./python-whitespace.js";

/**
 * The text a content hash is computed from: lowercased (full Unicode mapping), split on
 * Python's whitespace set and joined with single spaces.
 *
 * @example
 * normalizeContent("  Keep SKILL.md\tthin. "); // "keep skill.md thin."
 */
export function normalizeContent(text: string): string {
  return collapsePythonWhitespace(text.toLowerCase());
}

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
  return sha256Hex(normalizeContent(text)).slice(0, 16);
}

// crypto.hash (Node ≥ 20.12) is a one-shot digest two to three times faster than createHash,
// which counts when a knowledge bank holds tens of thousands of entries.
const oneShotHash = (crypto as { hash?: (algorithm: string, data: string, encoding: "hex") => string }).hash;
const sha256Hex: (text: string) => string =
  typeof oneShotHash === "function"
    ? (text) => oneShotHash("sha256", text, "hex")
    : (text) => crypto.createHash("sha256").update(text, "utf8").digest("hex");
