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
 * SHA-256 of a text's UTF-8 bytes, as hex. A process's first `FEW_HASHES` are worked out in
 * JavaScript (@noble/hashes), the rest by node's crypto: loading crypto costs a young process some
 * 3 to 4 ms (its ciphers and streams), more than hashing the one or two entries a session start
 * after an edit adds (`ParseOptions.knownHashes` gives the rest), and far less than hashing a bank
 * of thousands in JavaScript. Both give the same digest (tested).
 *
 * @example
 * sha256Hex("abc"); // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
 */
export function sha256Hex(text: string): string {
  if (nativeSha256Hex === undefined && hashedInJavaScript < FEW_HASHES) {
    hashedInJavaScript += 1;
    return javaScriptSha256Hex(text);
  }
  nativeSha256Hex ??= nativeHash();
  return nativeSha256Hex(text);
}

/** How many hashes a process works out in JavaScript before it loads node's crypto (`sha256Hex`). */
export const FEW_HASHES = 64;
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
