import * as crypto from "node:crypto";
import { sha256 } from "@noble/hashes/sha2";
import { bytesToHex } from "@noble/hashes/utils";
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

/**
 * `hashContent` of each text, worked out the way that suits how many there are (`sha256Hex`):
 * a file parsed whole hashes its entries with node's crypto at once, a few new entries without it.
 *
 * @example
 * hashContents(["Keep SKILL.md thin.", "Reproduce before you fix."]); // ["…", "…"]
 */
export function hashContents(texts: readonly string[]): string[] {
  const sha256 = sha256For(texts.length);
  return texts.map((text) => sha256(normalizeContent(text)).slice(0, 16));
}

/**
 * SHA-256 of a text's UTF-8 bytes, as hex. A process's first `FEW_HASHES` are worked out in
 * JavaScript (@noble/hashes), the rest by node's crypto (and all of a batch too large to fit in
 * what is left of them: `hashContents`): loading crypto costs a young process some
 * 3 to 4 ms (its ciphers and streams), more than hashing the one or two entries a session start
 * after an edit adds (`ParseOptions.knownHashes` gives the rest), but JavaScript not yet compiled
 * takes some 0.3 to 0.7 ms a hash: from five or so on, crypto is the cheaper. Both give the same
 * digest (tested).
 *
 * @example
 * sha256Hex("abc"); // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
 */
export function sha256Hex(text: string): string {
  return sha256For(1)(text);
}

// How to hash `count` texts more: in JavaScript while the process's few allow all of them, else with crypto.
function sha256For(count: number): (text: string) => string {
  if (nativeSha256Hex === undefined && hashedInJavaScript + count <= FEW_HASHES) {
    hashedInJavaScript += count;
    return javaScriptSha256Hex;
  }
  nativeSha256Hex ??= nativeHash();
  return nativeSha256Hex;
}

/** How many hashes a process works out in JavaScript before it loads node's crypto (`sha256Hex`): measured in a new process, 1 hash 0.7 ms, 18 hashes 5.4 ms, loading crypto 3 to 4 ms. */
export const FEW_HASHES = 4;
let hashedInJavaScript = 0;
let nativeSha256Hex: ((text: string) => string) | undefined;

/** `sha256Hex` in JavaScript alone. */
export function javaScriptSha256Hex(text: string): string {
  return bytesToHex(sha256(Buffer.from(text, "utf8")));
}

// crypto.hash (Node ≥ 20.12) is a one-shot digest two to three times faster than createHash,
// which counts when a knowledge bank holds tens of thousands of entries. Read at first use: the
// hooks' bundles load crypto only then.
function nativeHash(): (text: string) => string {
  const oneShotHash = (crypto as { hash?: (algorithm: string, data: string, encoding: "hex") => string }).hash;
  return typeof oneShotHash === "function" ? (text) => oneShotHash("sha256", text, "hex") : (text) => crypto.createHash("sha256").update(text, "utf8").digest("hex");
}
