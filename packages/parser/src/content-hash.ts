import { createRequire } from "node:module";
import { collapsePythonWhitespace } from "./python-whitespace.js";

/**
 * The text a content hash is computed from: lowercased (full Unicode mapping), split on
 * Python's whitespace set and joined with single spaces. Two descriptions have the same hash
 * exactly when they have the same normalised content, so comparing this is comparing hashes
 * without hashing.
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
  createHash ??= loadCrypto().createHash;
  return createHash("sha256").update(normalizeContent(text), "utf8").digest("hex").slice(0, 16);
}

// node:crypto takes a few milliseconds to load; a session start that hashes nothing skips it.
let createHash: typeof import("node:crypto").createHash | undefined;

function loadCrypto(): typeof import("node:crypto") {
  const getBuiltinModule = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  if (typeof getBuiltinModule === "function") return getBuiltinModule("node:crypto") as typeof import("node:crypto");
  // Node < 20.16: a CommonJS bundle has require; an ES module makes one.
  const load = typeof require === "function" ? require : createRequire(import.meta.url);
  return load("node:crypto") as typeof import("node:crypto");
}
