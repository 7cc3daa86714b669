// src/read-config.ts
import { join } from "path";

// src/lossless-utf8.ts
import { isUtf8 } from "buffer";
var ESCAPED_BYTE = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/;
var ESCAPED_BYTES = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/g;
var REPLACEMENT_CHARACTER = Buffer.from([239, 191, 189]);
function decodeLossless(bytes) {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isUtf8(buffer)) return buffer.toString("utf8");
  let text = "";
  let start = 0;
  let index = 0;
  while (index < buffer.length) {
    const length = sequenceLength(buffer, index);
    if (length > 0) {
      index += length;
      continue;
    }
    text += buffer.toString("utf8", start, index) + String.fromCharCode(56320 + buffer[index]);
    index += 1;
    start = index;
  }
  return start === 0 ? buffer.toString("utf8") : text + buffer.toString("utf8", start);
}
function encodeLossless(text) {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.indexOf(REPLACEMENT_CHARACTER) < 0 || !ESCAPED_BYTE.test(text)) return bytes;
  const parts = [];
  let start = 0;
  for (const match of text.matchAll(ESCAPED_BYTES)) {
    parts.push(Buffer.from(text.slice(start, match.index), "utf8"), Buffer.from([match[0].charCodeAt(0) - 56320]));
    start = match.index + 1;
  }
  parts.push(Buffer.from(text.slice(start), "utf8"));
  return Buffer.concat(parts);
}
function sequenceLength(buffer, index) {
  const first = buffer[index];
  if (first < 128) return 1;
  const continuation = (offset, low = 128, high = 191) => {
    const byte = buffer[index + offset];
    return byte !== void 0 && byte >= low && byte <= high;
  };
  if (first >= 194 && first <= 223) return continuation(1) ? 2 : 0;
  if (first >= 224 && first <= 239) {
    const [low, high] = first === 224 ? [160, 191] : first === 237 ? [128, 159] : [128, 191];
    return continuation(1, low, high) && continuation(2) ? 3 : 0;
  }
  if (first >= 240 && first <= 244) {
    const [low, high] = first === 240 ? [144, 191] : first === 244 ? [128, 143] : [128, 191];
    return continuation(1, low, high) && continuation(2) && continuation(3) ? 4 : 0;
  }
  return 0;
}

// src/read-user-file.ts
import { close, closeSync, constants, fstat, fstatSync, open, openSync, read, readSync, stat, statSync } from "fs";
var MAX_FILE_BYTES = 64 * 1024 * 1024;
function readUserFile(path, options = {}) {
  const steps = readSteps(path, options.maxBytes ?? MAX_FILE_BYTES);
  return new Promise((resolve7, reject) => {
    const advance = (error, value) => {
      let next;
      try {
        next = error === null ? steps.next(value) : steps.throw(error);
      } catch (bug) {
        reject(bug);
        return;
      }
      if (next.done) resolve7(next.value);
      else callAsync(next.value, advance);
    };
    advance(null);
  });
}
function readUserFileSync(path, options = {}) {
  const steps = readSteps(path, options.maxBytes ?? MAX_FILE_BYTES);
  let next = steps.next();
  while (!next.done) {
    let value;
    let failure2 = null;
    try {
      value = callSync(next.value);
    } catch (error) {
      failure2 = error;
    }
    next = failure2 === null ? steps.next(value) : steps.throw(failure2);
  }
  return next.value;
}
var OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);
function* readSteps(path, maxBytes) {
  let descriptor;
  try {
    const before = yield { name: "stat", path };
    if (!before.isFile()) return notAFile(path, before);
    descriptor = yield { name: "open", path };
    const info = yield { name: "fstat", descriptor };
    if (!info.isFile()) return notAFile(path, info);
    if (info.size > maxBytes) return { warning: { path, message: `is ${info.size} bytes, over the ${maxBytes}-byte limit; skipped` } };
    let buffer = Buffer.allocUnsafe(Math.min(Math.max(info.size, 16 * 1024), maxBytes) + 1);
    let length = 0;
    for (; ; ) {
      if (length === buffer.length) {
        if (length > maxBytes) return { warning: { path, message: `is over the ${maxBytes}-byte limit; skipped` } };
        const larger = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
        buffer.copy(larger);
        buffer = larger;
      }
      const count = yield { name: "read", descriptor, buffer, offset: length };
      if (count === 0) return { bytes: buffer.subarray(0, length) };
      length += count;
    }
  } catch (error) {
    return failure(path, error);
  } finally {
    if (descriptor !== void 0) yield { name: "close", descriptor };
  }
}
function notAFile(path, info) {
  const kind = info.isDirectory() ? "a directory" : info.isFIFO() ? "a FIFO" : info.isCharacterDevice() ? "a character device" : info.isBlockDevice() ? "a block device" : info.isSocket() ? "a socket" : "something else";
  return { warning: { path, message: `is ${kind}, not a file; skipped` } };
}
function failure(path, error) {
  switch (error.code) {
    case "ENOENT":
      return { missing: true };
    case "ENOTDIR":
      return { warning: { path, message: "its folder is a file, not a directory; skipped" } };
    case "ELOOP":
      return { warning: { path, message: "is a loop of symbolic links; skipped" } };
    default:
      return { warning: { path, message: `cannot be read (${error.code ?? error.message}); skipped` } };
  }
}
function callSync(call) {
  switch (call.name) {
    case "stat":
      return statSync(call.path);
    case "open":
      return openSync(call.path, OPEN_FLAGS);
    case "fstat":
      return fstatSync(call.descriptor);
    case "read":
      return readSync(call.descriptor, call.buffer, call.offset, call.buffer.length - call.offset, null);
    case "close":
      try {
        closeSync(call.descriptor);
      } catch {
      }
      return void 0;
  }
}
function callAsync(call, done) {
  switch (call.name) {
    case "stat":
      return stat(call.path, done);
    case "open":
      return open(call.path, OPEN_FLAGS, done);
    case "fstat":
      return fstat(call.descriptor, done);
    case "read":
      return read(call.descriptor, call.buffer, call.offset, call.buffer.length - call.offset, null, done);
    case "close":
      return close(call.descriptor, () => done(null));
  }
}

// src/read-text-file.ts
async function readTextFile(path, options) {
  return decoded(await readUserFile(path, options), options?.lossless === true);
}
function readTextFileSync(path, options) {
  return decoded(readUserFileSync(path, options));
}
function decoded(file, lossless = false) {
  if (!("bytes" in file)) return file;
  if (lossless) {
    const text2 = decodeLossless(file.bytes);
    return { text: text2.charCodeAt(0) === 65279 ? text2.slice(1) : text2 };
  }
  const { buffer, byteOffset, byteLength: byteLength2 } = file.bytes;
  const text = Buffer.from(buffer, byteOffset, byteLength2).toString("utf8");
  return { text: text.charCodeAt(0) === 65279 ? text.slice(1) : text };
}

// src/read-config.ts
var SESSION_EVENTS = ["startup", "resume", "clear", "compact", "fork"];
var MAX_INJECTION_CHARS = 9500;
var DEFAULT_CONFIG = Object.freeze({
  injectionEnabled: true,
  injectionLimit: 20,
  injectionMaxChars: 9e3,
  injectionEvents: ["startup", "resume", "clear", "fork"],
  globalEnabled: true,
  injectionRanking: "relevance",
  injectionIndex: true,
  promptRecall: true,
  promptRecallLimit: 5
});
var RANKINGS = ["relevance", "strict", "original"];
function isMemoryConfig(value) {
  if (value === null || typeof value !== "object") return false;
  const config = value;
  for (const key of Object.keys(DEFAULT_CONFIG)) {
    if (typeof config[key] !== typeof DEFAULT_CONFIG[key]) return false;
  }
  const events = config.injectionEvents;
  return Array.isArray(events) && events.every((event) => typeof event === "string") && RANKINGS.includes(config.injectionRanking);
}
function configPath(projectRoot) {
  return join(projectRoot, ".claude", "iflow-dev.local.md");
}
async function readConfig(projectRoot) {
  const path = configPath(projectRoot);
  const file = await readTextFile(path);
  if ("missing" in file) return { config: { ...DEFAULT_CONFIG }, path, configured: [], warnings: [] };
  if ("warning" in file) return { config: { ...DEFAULT_CONFIG }, path, configured: [], warnings: [file.warning] };
  return { ...parseConfigText(file.text, path, await loadParseDocument()), path };
}
async function loadParseDocument() {
  const yaml = await import("yaml");
  return typeof yaml.parseDocument === "function" ? yaml.parseDocument : yaml.default.parseDocument;
}
function parseConfigText(text, path, parseDocument) {
  const config = { ...DEFAULT_CONFIG };
  const configured = [];
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  if (lines[0]?.trimEnd() !== "---") {
    return { config, configured, warnings: [{ path, line: 1, message: "has no YAML frontmatter (a first line of ---); using the defaults" }] };
  }
  const end = lines.findIndex((line, index) => index > 0 && /^(---|\.\.\.)\s*$/.test(line));
  if (end < 0) {
    return { config, configured, warnings: [{ path, line: 1, message: "its YAML frontmatter is never closed with ---; using the defaults" }] };
  }
  const parsed = parseFrontmatter(lines.slice(1, end).join("\n"), parseDocument);
  if ("refusal" in parsed) {
    const reason = parsed.refusal.message.split("\n")[0] ?? "invalid YAML";
    return { config, configured, warnings: [{ path, line: (parsed.refusal.line ?? 0) + 1, message: `invalid YAML (${reason}); using the defaults` }] };
  }
  const data = parsed.data;
  if (data === null || data === void 0) return { config, configured, warnings: [] };
  if (typeof data !== "object" || Array.isArray(data)) {
    return { config, configured, warnings: [{ path, line: 2, message: "its frontmatter is not a mapping of keys to values; using the defaults" }] };
  }
  const values = data;
  const warnings = [];
  const lineOf = (key) => {
    const index = lines.findIndex((line, at) => at > 0 && at < end && line.startsWith(`${key}:`));
    return index < 0 ? void 0 : index + 1;
  };
  const read2 = (key, field, convert, expected) => {
    if (!(key in values)) return;
    const converted = convert(values[key]);
    if (converted === void 0) {
      const line = lineOf(key);
      warnings.push({
        path,
        ...line === void 0 ? {} : { line },
        message: `${key}: ${JSON.stringify(values[key])} is not ${expected}; using the default ${JSON.stringify(DEFAULT_CONFIG[field])}`
      });
    } else {
      config[field] = converted;
      configured.push(field);
    }
  };
  read2("memory_injection_enabled", "injectionEnabled", toBoolean, "true or false");
  read2("memory_injection_limit", "injectionLimit", (value) => toInteger(value, -1), "a whole number of -1 or more");
  read2("memory_injection_max_chars", "injectionMaxChars", (value) => toInteger(value, 1), "a whole number of 1 or more");
  if (config.injectionMaxChars > MAX_INJECTION_CHARS) {
    const line = lineOf("memory_injection_max_chars");
    warnings.push({
      path,
      ...line === void 0 ? {} : { line },
      message: `memory_injection_max_chars: ${config.injectionMaxChars} is more than Claude Code passes to the model whole (about 10,000 characters); capped at ${MAX_INJECTION_CHARS}`
    });
    config.injectionMaxChars = MAX_INJECTION_CHARS;
  }
  read2("memory_injection_events", "injectionEvents", toEvents, `a list of ${SESSION_EVENTS.join(", ")}`);
  const unknown = config.injectionEvents.filter((event) => !SESSION_EVENTS.includes(event));
  if (unknown.length > 0) {
    const line = lineOf("memory_injection_events");
    warnings.push({
      path,
      ...line === void 0 ? {} : { line },
      message: `memory_injection_events: ${unknown.join(", ")} is not a SessionStart source Claude Code is known to send (${SESSION_EVENTS.join(", ")}); kept as written`
    });
  }
  read2("memory_global_enabled", "globalEnabled", toBoolean, "true or false");
  read2("memory_injection_ranking", "injectionRanking", toRanking, "relevance, strict or original");
  read2("memory_injection_index", "injectionIndex", toBoolean, "true or false");
  read2("memory_prompt_recall", "promptRecall", toBoolean, "true or false");
  read2("memory_prompt_recall_limit", "promptRecallLimit", (value) => toInteger(value, 0), "a whole number of 0 or more");
  for (const key of Object.keys(values)) {
    if (CONFIG_KEYS.includes(key)) continue;
    const closest = closestConfigKey(key);
    if (closest === null) continue;
    const line = lineOf(key);
    warnings.push({ path, ...line === void 0 ? {} : { line }, message: `${key} is not a setting of iflow-memory; did you mean ${closest}? (ignored)` });
  }
  return { config, configured, warnings };
}
var REFUSED_WARNINGS = /* @__PURE__ */ new Set(["TAG_RESOLVE_FAILED", "BAD_COLLECTION_TYPE"]);
function parseFrontmatter(text, parseDocument) {
  try {
    const document = parseDocument(text, { prettyErrors: false, uniqueKeys: false });
    const problem = document.errors[0] ?? document.warnings.find((warning) => REFUSED_WARNINGS.has(warning.code));
    if (problem !== void 0) return { refusal: { message: problem.message, line: text.slice(0, problem.pos[0]).split("\n").length } };
    return { data: document.toJS() };
  } catch (error) {
    return { refusal: { message: error.message } };
  }
}
function toBoolean(value) {
  if (typeof value === "boolean") return value;
  if (typeof value !== "string") return void 0;
  const word = value.trim().toLowerCase();
  if (["true", "yes", "on"].includes(word)) return true;
  if (["false", "no", "off"].includes(word)) return false;
  return void 0;
}
function toRanking(value) {
  const word = typeof value === "string" ? value.trim().toLowerCase() : void 0;
  return word === "relevance" || word === "strict" || word === "original" ? word : void 0;
}
var CONFIG_KEYS = [
  "memory_injection_enabled",
  "memory_injection_limit",
  "memory_injection_max_chars",
  "memory_injection_events",
  "memory_global_enabled",
  "memory_injection_ranking",
  "memory_injection_index",
  "memory_prompt_recall",
  "memory_prompt_recall_limit"
];
function closestConfigKey(key) {
  const lower = key.toLowerCase();
  let best = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const known of CONFIG_KEYS) {
    const distance = editDistance(lower, known);
    if (distance < bestDistance) {
      best = known;
      bestDistance = distance;
    }
  }
  const ours = /^mem(?:ory|roy|ry|orry)?[_-]/.test(lower);
  return ours || bestDistance <= Math.max(1, Math.floor(key.length / 4)) ? best : null;
}
function editDistance(a, b) {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}
function toInteger(value, minimum) {
  const number = typeof value === "string" && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  return typeof number === "number" && Number.isSafeInteger(number) && number >= minimum ? number : void 0;
}
function toEvents(value) {
  const items = typeof value === "string" ? value.split(",") : Array.isArray(value) ? value : void 0;
  if (items === void 0 || items.some((item) => typeof item !== "string")) return void 0;
  const events = items.map((item) => item.trim().toLowerCase()).filter((item) => item !== "");
  return [...new Set(events)];
}

// src/find-project-root.ts
import { existsSync } from "fs";
import { dirname, join as join2, resolve } from "path";
async function findProjectRoot(start) {
  const first = resolve(start);
  for (let directory = first; ; directory = dirname(directory)) {
    if (existsSync(join2(directory, ".git")) || existsSync(join2(directory, "docs", "knowledge-bank"))) {
      return directory;
    }
    if (dirname(directory) === directory) return first;
  }
}

// src/read-global-store.ts
import { homedir } from "os";
import { join as join8 } from "path";

// src/read-entry-files.ts
import { join as join7 } from "path";
import { CATEGORIES, parseKnowledgeBank } from "@iflow-memory/parser";
import { entryFieldTerms, numberedFieldTerms, numberTerms } from "@iflow-memory/ranker";

// src/entry-file-cache.ts
import { join as join3 } from "path";

// src/settle-ms.ts
var SETTLE_MS = 2e3;

// src/short-hash.ts
function shortHash(text) {
  let hash = 2166136261;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 16777619);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}

// src/write-file-atomically.ts
import { closeSync as closeSync2, fchmodSync, fsyncSync, mkdirSync, openSync as openSync2, renameSync, unlinkSync, writeSync, writevSync } from "fs";
import { dirname as dirname2 } from "path";

// src/error-code.ts
function hasErrorCode(error, code) {
  return typeof error === "object" && error !== null && error.code === code;
}
var PLAIN = {
  EACCES: "permission denied",
  EPERM: "the operation is not permitted",
  EROFS: "the file system is read-only",
  ENOSPC: "the disk is full",
  EDQUOT: "the disk quota is used up",
  EISDIR: "a directory is in the way",
  ENOTDIR: "a file is in the way of a folder",
  EEXIST: "it already exists",
  EMFILE: "too many files are open",
  ELOOP: "it is a loop of symbolic links",
  ENAMETOOLONG: "the name is too long",
  EIO: "the disk reported an input/output error"
};
function errorMessage(error) {
  const code = typeof error === "object" && error !== null ? error.code : void 0;
  if (typeof code === "string" && Object.hasOwn(PLAIN, code)) return `${PLAIN[code]} (${code})`;
  return (error instanceof Error ? error.message : String(error)).split("\n")[0];
}

// src/store-error.ts
var StoreError = class extends Error {
  code;
  constructor(code, message, options) {
    super(message, options);
    this.name = "StoreError";
    this.code = code;
  }
};

// src/write-file-atomically.ts
async function writeFileAtomically(path, content, options = {}) {
  const temporary = `${path}.iflow-${uniqueSuffix()}.tmp`;
  try {
    const descriptor = openCreating(temporary);
    try {
      if (options.mode !== void 0) fchmodSync(descriptor, options.mode);
      if (isBytePieces(content)) writeAllPieces(descriptor, content);
      else for (const bytes of encodedPieces(content)) for (let written = 0; written < bytes.length; ) written += writeSync(descriptor, bytes, written);
      if (options.durable !== false) fsyncSync(descriptor);
    } finally {
      closeSync2(descriptor);
    }
    renameSync(temporary, path);
  } catch (error) {
    try {
      unlinkSync(temporary);
    } catch {
    }
    throw new StoreError("STORE_WRITE_FAILED", `cannot write ${path}: ${errorMessage(error)}; nothing was changed`, { cause: error });
  }
}
function isBytePieces(content) {
  return Array.isArray(content) && content.length > 0 && typeof content[0] !== "string";
}
var IOV_MAX = 1024;
function writeAllPieces(descriptor, pieces) {
  for (let from = 0; from < pieces.length; from += IOV_MAX) {
    let batch = pieces.slice(from, from + IOV_MAX);
    let left = 0;
    for (const piece of batch) left += piece.length;
    while (left > 0) {
      let written = writevSync(descriptor, batch);
      left -= written;
      if (left === 0) break;
      let at = 0;
      while (written >= batch[at].length) written -= batch[at++].length;
      batch = [batch[at].subarray(written), ...batch.slice(at + 1)];
    }
  }
}
function* encodedPieces(content) {
  if (typeof content === "string") yield encodeLossless(content);
  else if (content instanceof Uint8Array) yield content;
  else {
    let batch = [];
    let length = 0;
    for (const piece of content) {
      if (piece.length >= 1 << 20 && batch.length > 0) {
        yield encodeLossless(batch.join(""));
        batch = [];
        length = 0;
      }
      batch.push(piece);
      length += piece.length;
      if (length >= 1 << 20) {
        yield encodeLossless(batch.length === 1 ? piece : batch.join(""));
        batch = [];
        length = 0;
      }
    }
    if (batch.length > 0) yield encodeLossless(batch.join(""));
  }
}
function openCreating(path) {
  try {
    return openSync2(path, "wx", 384);
  } catch (error) {
    if (error.code !== "ENOENT") throw error;
    mkdirSync(dirname2(path), { recursive: true, mode: 448 });
    return openSync2(path, "wx", 384);
  }
}
function uniqueSuffix() {
  return `${process.pid.toString(16)}${Date.now().toString(16)}${Math.floor(Math.random() * 4294967295).toString(16)}`;
}

// src/stat-or-null.ts
import { stat as stat2 } from "fs";
function statOrNull(path) {
  return new Promise((resolve7) => stat2(path, { bigint: true }, (error, info) => resolve7(error === null ? info : null)));
}

// src/entry-file-cache.ts
var FORMAT = 4;
async function fileStamp(path, now2 = Date.now()) {
  const info = await statOrNull(path);
  if (info === null || !info.isFile()) return null;
  const settledBefore = BigInt(Math.floor(now2 - SETTLE_MS)) * 1000000n;
  return { stamp: `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`, settled: info.mtimeNs <= settledBefore && info.ctimeNs <= settledBefore };
}
function entryFileCachePath(cache, path) {
  return join3(cache.dir, "files", `${shortHash(path)}-${shortHash(`${path}\0`)}.json`);
}
function header(cache, path, stamp, how) {
  return JSON.stringify({ format: FORMAT, salt: cache.salt, path, stamp, how });
}
async function readFileEntries(cache, path, stamp, how) {
  const file = await readUserFile(entryFileCachePath(cache, path));
  if (!("bytes" in file)) return null;
  const bytes = Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
  const newline = bytes.indexOf(10);
  const second = newline < 0 ? -1 : bytes.indexOf(10, newline + 1);
  if (second < 0) return null;
  const first = bytes.toString("utf8", 0, newline);
  const current = first === header(cache, path, stamp, how);
  try {
    if (!current && first !== header(cache, path, stampOf(JSON.parse(first)), how)) return null;
    const { warnings, redactions, terms, vocabulary } = JSON.parse(bytes.toString("utf8", newline + 1, second));
    if (!Array.isArray(warnings) || !Array.isArray(redactions) || !Array.isArray(terms) || !terms.every((kept) => Array.isArray(kept))) return null;
    if (!Array.isArray(vocabulary) || !vocabulary.every((term) => typeof term === "string")) return null;
    const entries = [];
    for (let start = second + 1; start < bytes.length; ) {
      const end = bytes.indexOf(10, start);
      if (end < 0) return null;
      const entry = JSON.parse(bytes.toString("utf8", start, end));
      if (!isEntry(entry)) return null;
      KEPT_LINES.set(entry, bytes.subarray(start, end + 1));
      entries.push(entry);
      start = end + 1;
    }
    return entries.length === terms.length ? { entries, warnings, redactions, terms, vocabulary, current } : null;
  } catch {
    return null;
  }
}
function isEntry(value) {
  if (value === null || typeof value !== "object") return false;
  const entry = value;
  const { metadata, tags, origin } = entry;
  if (typeof metadata !== "object" || metadata === null || !Array.isArray(tags) || typeof origin !== "object" || origin === null) return false;
  for (const key in metadata) if (typeof metadata[key] !== "string") return false;
  for (const tag of tags) if (typeof tag !== "string") return false;
  return typeof entry.name === "string" && typeof entry.headerLine === "string" && typeof entry.category === "string" && typeof entry.description === "string" && typeof entry.metadataText === "string" && typeof entry.observationCount === "number" && typeof entry.confidence === "string" && (entry.lastObserved === null || typeof entry.lastObserved === "string") && typeof entry.filePosition === "number" && typeof entry.contentHash === "string" && typeof entry.scope === "string";
}
function stampOf(first) {
  const stamp = first !== null && typeof first === "object" ? first.stamp : void 0;
  return typeof stamp === "string" ? stamp : "";
}
function unchangedEntries(entries, earlier) {
  const byDescription = /* @__PURE__ */ new Map();
  earlier.entries.forEach((entry, at) => {
    if (REDACTED_FIELDS.some((field) => entry[field].includes(REDACTED))) return;
    const same = byDescription.get(entry.description);
    if (same === void 0) byDescription.set(entry.description, [at]);
    else same.push(at);
  });
  return entries.map((entry) => byDescription.get(entry.description)?.find((candidate) => REDACTED_FIELDS.every((field) => earlier.entries[candidate][field] === entry[field])));
}
function keptContentHashes(kept) {
  const hashes = /* @__PURE__ */ new Map();
  for (const entry of kept.entries) if (!entry.description.includes(REDACTED)) hashes.set(entry.description, entry.contentHash);
  return hashes;
}
var REDACTED_FIELDS = ["headerLine", "name", "description", "metadataText"];
var REDACTED = "[REDACTED]";
async function writeFileEntries(cache, path, stamp, how, read2) {
  const first = `${header(cache, path, stamp, how)}
${JSON.stringify({ warnings: read2.warnings, redactions: read2.redactions, vocabulary: read2.vocabulary, terms: read2.terms })}
`;
  await writeFileAtomically(entryFileCachePath(cache, path), [encodeLossless(first), ...read2.entries.map(entryLine)], { durable: false }).catch(() => void 0);
}
var KEPT_LINES = globalThis[Symbol.for("iflow-memory: kept entry lines")] ??= /* @__PURE__ */ new WeakMap();
function entryLine(entry) {
  return KEPT_LINES.get(entry) ?? encodeLossless(`${JSON.stringify(entry)}
`);
}
function keepLineOf(entry, earlier) {
  const line = KEPT_LINES.get(earlier);
  if (line !== void 0 && sameJson(entry, earlier)) KEPT_LINES.set(entry, line);
}
function sameJson(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  const others = Object.keys(b);
  if (keys.length !== others.length) return false;
  for (let at = 0; at < keys.length; at++) {
    const key = keys[at];
    if (key !== others[at] || !sameJson(a[key], b[key])) return false;
  }
  return true;
}

// src/read-committed-files.ts
import { join as join6 } from "path";

// src/commit-files.ts
import { randomBytes } from "crypto";
import { mkdir, open as open2, readdir, rename, unlink } from "fs/promises";
import { basename, dirname as dirname3, join as join5 } from "path";

// src/held-locks.ts
import { join as join4, resolve as resolve2 } from "path";
var LOCK_FILE = ".lock";
var held = /* @__PURE__ */ new Map();
function rememberHeldLock(directory, nonce) {
  held.set(resolve2(directory), nonce);
}
function forgetHeldLock(directory) {
  held.delete(resolve2(directory));
}
async function assertLockStillHeld(directory) {
  const nonce = held.get(resolve2(directory));
  if (nonce === void 0) return;
  const file = await readTextFile(join4(directory, LOCK_FILE));
  let current = null;
  try {
    current = "text" in file ? JSON.parse(file.text).nonce : null;
  } catch {
    current = null;
  }
  if (current !== nonce) {
    throw new StoreError("STORE_LOCKED", `cannot commit in ${directory}: another process took the store's lock while this one was stalled; nothing was changed \u2014 run the command again`);
  }
}

// src/commit-files.ts
var COMMIT_JOURNAL = ".commit.json";
var TEMPORARY = /\.iflow-[0-9a-f]{16}\.tmp$/;
async function commitFiles(directory, writes) {
  if (writes.length === 0) return;
  for (const write of writes) {
    const bytes = byteLength(write.content);
    if (bytes > MAX_FILE_BYTES) {
      throw new StoreError("STORE_WRITE_FAILED", `cannot write ${basename(write.path)} in ${directory}: it would be ${bytes} bytes, over the ${MAX_FILE_BYTES}-byte limit it must be read back within; nothing was changed \u2014 forget or archive entries to make room`);
    }
  }
  const nonce = randomBytes(8).toString("hex");
  const renames = writes.map((write) => ({ from: `${write.path}.iflow-${nonce}.tmp`, to: write.path }));
  const written = await Promise.allSettled(
    writes.map(async (write, at) => {
      await mkdir(dirname3(write.path), { recursive: true, mode: 448 });
      await writeSynced(renames[at].from, write.content);
    })
  );
  const failed = written.find((result) => result.status === "rejected");
  if (failed !== void 0) {
    await Promise.all(renames.map(({ from }) => unlink(from).catch(() => void 0)));
    throw new StoreError("STORE_WRITE_FAILED", `cannot write ${writes.map((write) => basename(write.path)).join(", ")} in ${directory}: ${errorMessage(failed.reason)}; nothing was changed`, { cause: failed.reason });
  }
  try {
    await assertLockStillHeld(directory);
  } catch (error) {
    await Promise.all(renames.map(({ from }) => unlink(from).catch(() => void 0)));
    throw error;
  }
  if (renames.length === 1) {
    await applyRenames(renames);
    await syncDirectories([dirname3(renames[0].to)]);
    return;
  }
  const journalPath = join5(directory, COMMIT_JOURNAL);
  const journalTemporary = `${journalPath}.iflow-${nonce}.tmp`;
  await writeSynced(journalTemporary, `${JSON.stringify({ renames })}
`);
  await rename(journalTemporary, journalPath);
  await syncDirectories([directory]);
  await applyRenames(renames);
  await syncDirectories([...new Set(renames.map(({ to }) => dirname3(to)))]);
  await unlink(journalPath);
  await syncDirectories([directory]);
}
async function recoverCommit(directory) {
  const journalPath = join5(directory, COMMIT_JOURNAL);
  const file = await readTextFile(journalPath);
  const journal = "text" in file ? parseJournal(file.text) : null;
  if (journal === null && !("missing" in file)) await unlink(journalPath).catch(() => void 0);
  if (journal !== null) {
    await applyRenames(journal.renames, { missingIsDone: true });
    await syncDirectories([...new Set(journal.renames.map(({ to }) => dirname3(to)))]);
    await unlink(journalPath).catch(() => void 0);
    await syncDirectories([directory]);
  }
  const names = await readdir(directory).catch(() => []);
  await Promise.all(names.filter((name) => TEMPORARY.test(name)).map((name) => unlink(join5(directory, name)).catch(() => void 0)));
  return journal !== null;
}
function parseJournal(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
async function applyRenames(renames, options = {}) {
  for (const { from, to } of renames) {
    try {
      await rename(from, to);
    } catch (error) {
      if (options.missingIsDone === true && hasErrorCode(error, "ENOENT")) continue;
      throw new StoreError("STORE_WRITE_FAILED", `cannot replace ${to}: ${errorMessage(error)}; the next write to this store finishes the change`, { cause: error });
    }
  }
}
function byteLength(content) {
  if (typeof content === "string") return encodeLossless(content).length;
  return content instanceof Uint8Array ? content.length : content.reduce((sum, piece) => sum + piece.length, 0);
}
async function writeSynced(path, content) {
  const handle = await open2(path, "w", 384);
  try {
    if (typeof content === "string" || content instanceof Uint8Array) {
      await handle.writeFile(typeof content === "string" ? encodeLossless(content) : content);
    } else {
      for (const piece of content) {
        for (let written = 0; written < piece.length; ) written += (await handle.write(piece, written)).bytesWritten;
      }
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
}
async function syncDirectories(directories) {
  for (const directory of directories) {
    const handle = await open2(directory, "r").catch(() => null);
    if (handle === null) continue;
    await handle.sync().catch(() => void 0);
    await handle.close();
  }
}

// src/read-committed-files.ts
var ATTEMPTS = 4;
async function readCommittedFiles(directory, paths, read2) {
  const journalPath = join6(directory, COMMIT_JOURNAL);
  let results = [];
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const before = await identities([journalPath, ...paths]);
    const committed = await pendingRenames(journalPath);
    results = await Promise.all(paths.map(async (path) => {
      const from = committed.get(path);
      return read2(from !== void 0 && await statOrNull(from) !== null ? from : path, path);
    }));
    if (await identities([journalPath, ...paths]) === before) return results;
  }
  return results;
}
async function identities(paths) {
  const infos = await Promise.all(paths.map(statOrNull));
  return infos.map((info) => info === null ? "-" : `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`).join("\n");
}
async function pendingRenames(journalPath) {
  const renames = /* @__PURE__ */ new Map();
  const file = await readTextFile(journalPath);
  if (!("text" in file)) return renames;
  try {
    const journal = JSON.parse(file.text);
    if (!Array.isArray(journal.renames)) return renames;
    for (const item of journal.renames) {
      if (typeof item?.from !== "string" || typeof item.to !== "string") continue;
      if (item.from.startsWith(`${item.to}.iflow-`) && /^\.iflow-[0-9a-f]{16}\.tmp$/.test(item.from.slice(item.to.length))) renames.set(item.to, item.from);
    }
  } catch {
  }
  return renames;
}

// src/redact-entries-read.ts
import { redactEntry } from "@iflow-memory/parser";
function redactEntriesRead(read2, where, secretFree) {
  const warnings = [...read2.warnings];
  let changed = false;
  const entries = read2.entries.map((entry, at) => {
    if (secretFree?.(at) === true) return entry;
    const { entry: clean, kinds } = redactEntry(entry);
    if (kinds.length === 0) return entry;
    changed = true;
    warnings.push({ path: entry.origin.path, line: entry.origin.line, message: `"${clean.name}" contains a secret (${[...new Set(kinds)].join(", ")}); injected with [REDACTED] in its place \u2014 remove it from ${where}` });
    return clean;
  });
  return changed ? { ...read2, entries, warnings } : read2;
}

// src/read-entry-files.ts
async function readEntryFiles(directory, scope, options = {}) {
  const paths = CATEGORIES.map((category) => join7(directory, `${category}.md`));
  const results = await readCommittedFiles(directory, paths, (path, target) => readEntryFile(path, target === path, { scope, category: CATEGORIES[paths.indexOf(target)] }, options));
  const entries = [];
  const warnings = [];
  for (const result of results) {
    for (const entry of result.entries) entries.push(entry);
    for (const warning of result.warnings) warnings.push(warning);
  }
  for (const result of results) for (const warning of result.redactions) warnings.push(warning);
  if (options.terms !== true || options.cache === void 0 || options.redact === void 0) return { entries, warnings };
  const terms = /* @__PURE__ */ new Map();
  for (const result of results)
    result.entries.forEach((entry, at) => {
      const numbers = result.terms[at];
      if (numbers !== void 0) terms.set(entry, { vocabulary: result.vocabulary, numbers });
    });
  return { entries, warnings, terms };
}
async function readEntryFile(path, isTarget, file, options) {
  const cache = options.redact !== void 0 && isTarget ? options.cache : void 0;
  const how = `${file.scope} ${file.category} ${options.redact}`;
  const now2 = cache?.now ?? Date.now;
  const state = cache === void 0 ? null : await fileStamp(path, now2());
  const kept = cache !== void 0 && state !== null ? await readFileEntries(cache, path, state.stamp, how) : null;
  if (kept?.current === true) return kept;
  const result = await readTextFile(path);
  if ("warning" in result) return { entries: [], warnings: [result.warning], redactions: [], terms: [], vocabulary: [] };
  if (!("text" in result)) return { entries: [], warnings: [], redactions: [], terms: [], vocabulary: [] };
  const parsed = parseKnowledgeBank(result.text, { ...file, path, ...kept === null ? {} : { knownHashes: keptContentHashes(kept) } });
  const matched = kept === null ? [] : unchangedEntries(parsed.entries, kept);
  const unchanged = matched.map((at) => at === void 0 ? void 0 : kept.terms[at]);
  const read2 = options.redact === void 0 ? parsed : redactEntriesRead(parsed, options.redact, (at) => unchanged[at] !== void 0);
  matched.forEach((at, position) => at !== void 0 && keepLineOf(read2.entries[position], kept.entries[at]));
  const keep = cache !== void 0 && state !== null && state.settled && (await fileStamp(path, now2()))?.stamp === state.stamp;
  let vocabulary = kept?.vocabulary ?? [];
  let terms = unchanged;
  if (keep) {
    const grown = [...vocabulary];
    const positions = new Map(grown.map((term, at) => [term, at]));
    ({ vocabulary, terms } = compactVocabulary(
      grown,
      read2.entries.map((entry, at) => unchanged[at] ?? numberTerms(entryFieldTerms(entry), grown, positions)),
      read2.entries
    ));
  }
  const entries = { entries: read2.entries, warnings: read2.warnings.slice(0, parsed.warnings.length), redactions: read2.warnings.slice(parsed.warnings.length), terms, vocabulary };
  if (keep) await writeFileEntries(cache, path, state.stamp, how, entries);
  return entries;
}
function compactVocabulary(vocabulary, terms, entries) {
  const used = new Uint8Array(vocabulary.length);
  let count = 0;
  for (const fields of terms) for (const field of fields) if (Array.isArray(field)) {
    for (const at of field) if (used[at] === 0) used[at] = 1, count++;
  }
  if (vocabulary.length - count <= count + 1e3) return { vocabulary, terms };
  const fresh = [];
  const positions = /* @__PURE__ */ new Map();
  return {
    vocabulary: fresh,
    terms: terms.map((numbers, at) => numberTerms(numberedFieldTerms({ vocabulary, numbers }) ?? entryFieldTerms(entries[at]), fresh, positions))
  };
}

// src/read-global-store.ts
function resolveGlobalStoreDir(options) {
  if (options.flag !== void 0 && options.flag !== "") return options.flag;
  const fromEnv = options.env.IFLOW_MEMORY_HOME;
  if (fromEnv !== void 0 && fromEnv !== "") return fromEnv;
  const home = options.env.HOME !== void 0 && options.env.HOME !== "" ? options.env.HOME : homedir();
  return join8(home, ".claude", "iflow", "memory");
}
async function readGlobalStore(directory, options = {}) {
  return readEntryFiles(directory, "global", { redact: "the store", ...options });
}

// src/read-knowledge-bank.ts
import { readdirSync } from "fs";
import { join as join9 } from "path";
import { CATEGORIES as CATEGORIES2 } from "@iflow-memory/parser";
function knowledgeBankDir(projectRoot) {
  return join9(projectRoot, "docs", "knowledge-bank");
}
async function readKnowledgeBank(projectRoot, options = {}) {
  const directory = knowledgeBankDir(projectRoot);
  const cache = options.cache === void 0 ? {} : { cache: options.cache, terms: options.terms === true };
  const read2 = await readEntryFiles(directory, "local", options.raw === true ? {} : { redact: "the knowledge bank", ...cache });
  const names = listFiles(directory);
  const known = new Set(CATEGORIES2.map((category) => `${category}.md`));
  const ignoredFiles = names.filter((name) => !known.has(name)).map((name) => join9(directory, name));
  return { ...read2, ignoredFiles };
}
function listFiles(directory) {
  try {
    return readdirSync(directory);
  } catch {
    return [];
  }
}

// src/inject-memory.ts
import { planInjection } from "@iflow-memory/ranker";

// src/read-feedback.ts
import { join as join10 } from "path";
var FEEDBACK_FILE = ".feedback.jsonl";
var MAX_FEEDBACK_NOTE = 500;
function readFeedback(globalStoreDir) {
  const summaries = /* @__PURE__ */ new Map();
  const file = readTextFileSync(join10(globalStoreDir, FEEDBACK_FILE));
  if (!("text" in file)) return summaries;
  for (const line of file.text.split("\n")) {
    const record = parseRecord(line);
    if (record === null) continue;
    let summary = summaries.get(record.hash);
    if (summary === void 0) {
      summary = { helpful: 0, unhelpful: 0, last: record.ts, notes: [] };
      summaries.set(record.hash, summary);
    }
    if (record.helpful) summary.helpful++;
    else summary.unhelpful++;
    if (record.ts > summary.last) summary.last = record.ts;
    if (record.note !== void 0) {
      summary.notes.push({ ts: record.ts, helpful: record.helpful, note: record.note });
      if (summary.notes.length > 5) summary.notes.shift();
    }
  }
  return summaries;
}
function parseRecord(line) {
  if (line.trim() === "") return null;
  try {
    const value = JSON.parse(line);
    if (typeof value.hash !== "string" || !/^[0-9a-f]{16}$/.test(value.hash) || typeof value.helpful !== "boolean" || typeof value.ts !== "string") return null;
    return { ts: value.ts, hash: value.hash, helpful: value.helpful, ...typeof value.note === "string" ? { note: value.note } : {} };
  } catch {
    return null;
  }
}

// src/read-memory-sources.ts
async function readMemorySources(options) {
  const cache = options.cache === void 0 ? {} : { cache: options.cache, terms: options.terms === true };
  const [bank, store] = await Promise.all([
    readKnowledgeBank(options.projectRoot, cache),
    options.includeGlobal ? readGlobalStore(options.globalStoreDir, cache) : Promise.resolve({ entries: [], warnings: [] })
  ]);
  return {
    local: bank.entries,
    global: store.entries,
    warnings: [...bank.warnings, ...store.warnings],
    ignoredFiles: bank.ignoredFiles,
    ...bank.terms === void 0 ? {} : { terms: joinTerms(bank.terms, store.terms) }
  };
}
function joinTerms(terms, more) {
  for (const [entry, kept] of more ?? []) terms.set(entry, kept);
  return terms;
}

// src/write-tracking.ts
import { basename as basename2, join as join11 } from "path";

// src/iso-timestamp.ts
function isoTimestamp(date) {
  const year = date.getUTCFullYear();
  if (!(year >= 1e3 && year <= 9999)) return date.toISOString().replace(/\.\d{3}Z$/, "Z");
  return `${year}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}T${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}Z`;
}
function two(value) {
  return value < 10 ? `0${value}` : String(value);
}

// src/write-tracking.ts
function trackingPath(globalStoreDir) {
  return join11(globalStoreDir, ".last-injection.json");
}
function projectName(projectRoot) {
  return basename2(projectRoot.replace(/[\\/]+$/, "")) || projectRoot;
}
function createTrackingRecord(options) {
  const { plan } = options;
  return {
    timestamp: isoTimestamp(options.now),
    project: options.project,
    entries_injected: plan.entries.length,
    sources: { ...plan.sources },
    entry_names: plan.entries.map((entry) => entry.name),
    chars: plan.block.length,
    estimated_tokens: Math.ceil(plan.block.length / 4),
    dropped_for_budget: plan.droppedForBudget,
    ...plan.indexed === void 0 || plan.indexed.length === 0 ? {} : { entries_indexed: plan.indexed.length },
    ...options.event === void 0 ? {} : { event: options.event }
  };
}
async function writeTracking(globalStoreDir, record) {
  const path = trackingPath(globalStoreDir);
  try {
    await writeFileAtomically(path, `${JSON.stringify(record, null, 2)}
`, { durable: false });
  } catch (cause) {
    const system = cause.cause ?? cause;
    throw new Error(`cannot write ${path}: ${system.code ?? system.message}`, { cause });
  }
}
async function trackInjection(options) {
  if (options.plan.entries.length === 0) return null;
  try {
    await writeTracking(options.globalStoreDir, createTrackingRecord(options));
    return null;
  } catch (error) {
    return { path: trackingPath(options.globalStoreDir), message: `tracking not written (${error.message}); the injection itself is unaffected` };
  }
}

// src/inject-memory.ts
async function injectMemory(options) {
  const project = projectName(options.projectRoot);
  const sources = await readMemorySources(options);
  const plan = planInjection({
    local: sources.local,
    global: sources.global,
    project,
    limit: options.limit,
    maxChars: options.maxChars,
    // Feedback moves a relevance ranking, as at a session start; today's order stays the original's.
    ...options.query === void 0 ? {} : { query: options.query, ranking: { feedback: readFeedback(options.globalStoreDir) } },
    ...options.index === void 0 ? {} : { index: options.index }
  });
  const warnings = [...sources.warnings];
  if (options.tracking !== null) {
    const warning = await trackInjection({ globalStoreDir: options.globalStoreDir, project, plan, ...options.tracking });
    if (warning !== null) warnings.push(warning);
  }
  return { project, plan, warnings, ignoredFiles: sources.ignoredFiles };
}

// src/store-warning.ts
function formatWarning(warning) {
  return `${warning.path}${warning.line === void 0 ? "" : `:${warning.line}`}: ${warning.message}`;
}

// src/prune-store-cache.ts
import { closeSync as closeSync3, lstatSync, openSync as openSync3, readdirSync as readdirSync2, statSync as statSync2, unlinkSync as unlinkSync2, utimesSync } from "fs";
import { join as join12 } from "path";
var CACHE_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1e3;
var PRUNE_EVERY_MS = 24 * 60 * 60 * 1e3;
var TEMPORARY_MAX_AGE_MS = 24 * 60 * 60 * 1e3;
var MARKER = ".pruned";
var PROJECT_CACHE = /^(?:injection|git-log|inject)-[0-9a-f]+(?:\.plan|\.ranking)?\.json(?:\.refreshing)?$/;
var FILE_CACHE = /^[0-9a-f]+-[0-9a-f]+\.json$/;
var TEMPORARY2 = /\.(?:iflow-)?[0-9a-f]+\.tmp$/;
function pruneStoreCache(cacheDir, now2 = Date.now()) {
  try {
    const marker = join12(cacheDir, MARKER);
    const last = statSync2(marker, { throwIfNoEntry: false });
    if (last !== void 0 && last.mtimeMs <= now2 && now2 - last.mtimeMs < PRUNE_EVERY_MS) return 0;
    closeSync3(openSync3(marker, "w", 384));
    utimesSync(marker, now2 / 1e3, now2 / 1e3);
    return pruneFolder(cacheDir, PROJECT_CACHE, now2) + pruneFolder(join12(cacheDir, "files"), FILE_CACHE, now2);
  } catch {
    return 0;
  }
}
function pruneFolder(folder, pattern, now2) {
  let names;
  try {
    names = readdirSync2(folder);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const temporary = TEMPORARY2.test(name);
    if (!temporary && !pattern.test(name)) continue;
    const path = join12(folder, name);
    try {
      const info = lstatSync(path);
      if (!info.isFile() || now2 - Math.max(info.atimeMs, info.mtimeMs) <= (temporary ? TEMPORARY_MAX_AGE_MS : CACHE_MAX_AGE_MS)) continue;
      unlinkSync2(path);
      removed += 1;
    } catch {
    }
  }
  return removed;
}

// src/with-store-lock.ts
import { randomBytes as randomBytes2 } from "crypto";
import { link, mkdir as mkdir2, stat as stat3, unlink as unlink2, utimes, writeFile } from "fs/promises";
import { hostname } from "os";
import { join as join13 } from "path";
async function withStoreLock(directory, action, options = {}) {
  const timeoutMs = options.timeoutMs ?? 1e4;
  const staleMs = options.staleMs ?? 6e4;
  try {
    await mkdir2(directory, { recursive: true, mode: 448 });
  } catch (error) {
    const why = hasErrorCode(error, "EEXIST") || hasErrorCode(error, "ENOTDIR") ? "it (or a folder above it) is a file, not a directory" : errorMessage(error);
    throw new StoreError("STORE_NOT_DIRECTORY", `cannot use ${directory}: ${why}; move it away or choose another folder`, { cause: error });
  }
  const lockPath = join13(directory, LOCK_FILE);
  const owner = { pid: process.pid, host: hostname(), nonce: randomBytes2(8).toString("hex"), created: (/* @__PURE__ */ new Date()).toISOString() };
  const deadline = Date.now() + timeoutMs;
  let delay = 5;
  while (!await tryCreateLock(lockPath, owner)) {
    await breakIfStale(lockPath, staleMs);
    if (Date.now() > deadline) {
      const holder = await readOwner(lockPath);
      const who = holder === null ? "another process" : `process ${holder.pid} on ${holder.host}`;
      const heldFor = holder === null ? Number.NaN : Date.now() - Date.parse(holder.created);
      const seconds = Math.round(timeoutMs / 1e3);
      if (heldFor < timeoutMs) {
        throw new StoreError("STORE_LOCKED", `cannot lock ${directory}: other iflow-memory processes kept it busy for ${seconds} s, one after another (now ${who}); try again when fewer are writing`);
      }
      throw new StoreError("STORE_LOCKED", `cannot lock ${directory}: ${who} has held ${LOCK_FILE} for over ${seconds} s; try again, or delete ${lockPath} if no iflow-memory is running`);
    }
    await sleep(delay + Math.random() * delay);
    delay = Math.min(delay * 2, 100);
  }
  rememberHeldLock(directory, owner.nonce);
  const heartbeat = setInterval(() => void beat(lockPath, owner), Math.max(10, Math.floor(staleMs / 4)));
  heartbeat.unref();
  try {
    await recoverCommit(directory);
    return await action();
  } finally {
    clearInterval(heartbeat);
    forgetHeldLock(directory);
    await releaseLock(lockPath, owner);
  }
}
async function beat(lockPath, owner) {
  try {
    if ((await readOwner(lockPath))?.nonce !== owner.nonce) return;
    const now2 = /* @__PURE__ */ new Date();
    await utimes(lockPath, now2, now2);
  } catch {
  }
}
async function tryCreateLock(lockPath, owner) {
  const temporary = `${lockPath}.${owner.nonce}.tmp`;
  await writeFile(temporary, `${JSON.stringify(owner)}
`, { mode: 384 });
  try {
    await link(temporary, lockPath);
    return true;
  } catch (error) {
    if (hasErrorCode(error, "EEXIST")) return false;
    throw new StoreError("STORE_WRITE_FAILED", `cannot create ${lockPath}: ${errorMessage(error)}; check that the folder is writable`, { cause: error });
  } finally {
    await unlink2(temporary).catch(() => void 0);
  }
}
async function readOwner(lockPath) {
  const file = await readTextFile(lockPath);
  if (!("text" in file)) return null;
  try {
    const owner = JSON.parse(file.text);
    return typeof owner.pid === "number" && typeof owner.nonce === "string" && typeof owner.host === "string" ? owner : null;
  } catch {
    return null;
  }
}
async function breakIfStale(lockPath, staleMs) {
  const owner = await readOwner(lockPath);
  if (owner === null) {
    const age2 = await ageOf(lockPath);
    if (age2 !== null && age2 > staleMs) await removeIfSame(lockPath, null);
    return;
  }
  if (owner.host === hostname()) {
    if (!isAlive(owner.pid)) await removeIfSame(lockPath, owner.nonce);
    return;
  }
  const age = await ageOf(lockPath);
  if (age !== null && age > staleMs) await removeIfSame(lockPath, owner.nonce);
}
async function removeIfSame(lockPath, nonce) {
  const breakPath = `${lockPath}.break`;
  const breaker = { pid: process.pid, host: hostname(), nonce: randomBytes2(8).toString("hex"), created: (/* @__PURE__ */ new Date()).toISOString() };
  if (!await tryCreateLock(breakPath, breaker)) {
    const age = await ageOf(breakPath);
    if (age !== null && age > 5e3) await unlink2(breakPath).catch(() => void 0);
    return;
  }
  try {
    const current = await readOwner(lockPath);
    if ((current?.nonce ?? null) === nonce) await unlink2(lockPath).catch(() => void 0);
  } finally {
    await unlink2(breakPath).catch(() => void 0);
  }
}
async function releaseLock(lockPath, owner) {
  const current = await readOwner(lockPath);
  if (current?.nonce === owner.nonce) await unlink2(lockPath).catch(() => void 0);
}
async function ageOf(path) {
  try {
    return Date.now() - (await stat3(path)).mtimeMs;
  } catch {
    return null;
  }
}
function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return !hasErrorCode(error, "ESRCH");
  }
}
function sleep(milliseconds) {
  return new Promise((resolve7) => setTimeout(resolve7, milliseconds));
}

// src/prepare-session-injection.ts
import { buildRelevanceIndex, entryOrders, injectionCandidates, planInjection as planInjection2, sharedHashPrefixes } from "@iflow-memory/ranker";
async function prepareSessionInjection(options) {
  const { config, warnings: configWarnings } = await readConfig(options.projectRoot);
  if (!config.injectionEnabled) {
    return { config, configWarnings, plan: { block: "", entries: [], sources: { local: 0, global: 0 }, droppedForBudget: 0 }, warnings: [] };
  }
  const ranks = config.injectionRanking !== "original" || config.promptRecall;
  const sources = await readMemorySources({
    projectRoot: options.projectRoot,
    globalStoreDir: options.globalStoreDir,
    includeGlobal: config.globalEnabled,
    ...options.fileCache === void 0 ? {} : { cache: options.fileCache, terms: ranks }
  });
  const candidates = injectionCandidates({ local: sources.local, global: sources.global, project: projectName(options.projectRoot) });
  if (!ranks) {
    const plan2 = planInjection2({ candidates, limit: config.injectionLimit, maxChars: config.injectionMaxChars, ...sessionIndex(config) });
    return { config, configWarnings, plan: trackedPlan(plan2), warnings: sources.warnings };
  }
  const ranking = { candidates, index: buildRelevanceIndex(candidates, void 0, sources.terms), orders: entryOrders(candidates), sharedHashPrefixes: sharedHashPrefixes(candidates) };
  const plan = planInjection2({ candidates, limit: config.injectionLimit, maxChars: config.injectionMaxChars, ...sessionIndex(config), ranking: { orders: ranking.orders }, sharedHashPrefixes: ranking.sharedHashPrefixes });
  return { config, configWarnings, plan: trackedPlan(plan), ranking, warnings: sources.warnings };
}
var SESSION_INDEX_MAX_LINES = 150;
var SESSION_INDEX_SHARE = 0.7;
var SESSION_MATCHES_IN_FULL = 5;
function sessionIndex(config) {
  return config.injectionIndex ? { index: { fetch: "mcp", share: SESSION_INDEX_SHARE, maxLines: SESSION_INDEX_MAX_LINES, matchesInFull: SESSION_MATCHES_IN_FULL } } : {};
}
function trackedPlan(plan) {
  return {
    block: plan.block,
    entries: plan.entries.map((entry) => {
      const terms = plan.matchedTerms?.get(entry);
      return { name: entry.name, contentHash: entry.contentHash, ...terms === void 0 ? {} : { matchedTerms: terms } };
    }),
    sources: plan.sources,
    droppedForBudget: plan.droppedForBudget,
    ...plan.indexed.length === 0 ? {} : { indexed: plan.indexed.map((entry) => ({ name: entry.name, contentHash: entry.contentHash })) }
  };
}

// src/ranking-cache-file.ts
import { indexTerms } from "@iflow-memory/ranker";
var CONFIDENCE = { h: "high", m: "medium", l: "low" };
var CATEGORY = { a: "anti-patterns", h: "heuristics", p: "patterns" };
function encodeRankingCache(fingerprint, ranking) {
  return Buffer.concat(rankingCachePieces(fingerprint, ranking)).toString("utf8");
}
function rankingCachePieces(fingerprint, ranking) {
  const lines = ranking.candidates.map(entryLine);
  const offsets = [];
  let offset = 0;
  for (const line of lines) {
    offsets.push(offset);
    offset += line.length;
  }
  offsets.push(offset);
  const postings = new Map(indexTerms(ranking.index));
  const terms = [...postings.keys()].sort();
  const texts = terms.map((term) => postings.get(term));
  const termStarts = [0];
  for (const text of texts) termStarts.push(termStarts[termStarts.length - 1] + text.length);
  const { candidates } = ranking;
  const header2 = {
    fingerprint,
    documents: ranking.index.documents,
    terms,
    termStarts,
    offsets,
    observationCount: candidates.map((entry) => entry.observationCount),
    confidence: candidates.map((entry) => entry.confidence[0]).join(""),
    contentHash: candidates.map((entry) => entry.contentHash),
    category: candidates.map((entry) => entry.category[0]).join(""),
    scope: candidates.map((entry) => entry.scope[0]).join(""),
    order: Array.from(ranking.orders.order),
    recency: Array.from(ranking.orders.recency),
    sharedHashPrefixes: ranking.sharedHashPrefixes
  };
  return [encodeLossless(`${JSON.stringify(header2)}
`), ...lines, Buffer.from(`${texts.join("")}
`, "latin1")];
}
function decodeRankingCache(bytes, fingerprint) {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const newline = buffer.indexOf(10);
  if (newline < 0) return null;
  const text = buffer.subarray(newline + 1);
  return decodeRankingCacheHeader(buffer.toString("utf8", 0, newline), fingerprint, text.length, (start, end) => text.toString("utf8", start, end));
}
function decodeRankingCacheHeader(header2, fingerprint, bodyBytes, readLine) {
  let parsed;
  try {
    parsed = JSON.parse(header2);
  } catch {
    return null;
  }
  const count = parsed.contentHash?.length;
  if (parsed.fingerprint !== fingerprint || !Array.isArray(parsed.offsets) || parsed.offsets.length !== count + 1) return null;
  if (!Array.isArray(parsed.terms) || !Array.isArray(parsed.termStarts) || parsed.termStarts.length !== parsed.terms.length + 1 || typeof parsed.documents !== "number") return null;
  const postingsStart = parsed.offsets[count];
  if (bodyBytes !== postingsStart + parsed.termStarts[parsed.terms.length] + 1) return null;
  if (!Array.isArray(parsed.order) || parsed.order.length !== count || !Array.isArray(parsed.recency) || parsed.recency.length !== count || !Array.isArray(parsed.sharedHashPrefixes)) return null;
  const candidates = [];
  for (let at = 0; at < count; at++) {
    const start = parsed.offsets[at];
    const end = parsed.offsets[at + 1] - 1;
    candidates.push(
      new CachedEntry(readLine, start, end, {
        category: CATEGORY[parsed.category[at]],
        observationCount: parsed.observationCount[at],
        confidence: CONFIDENCE[parsed.confidence[at]],
        contentHash: parsed.contentHash[at],
        scope: parsed.scope[at] === "g" ? "global" : "local"
      })
    );
  }
  const { terms, termStarts } = parsed;
  const find = (term) => {
    let low = 0;
    let high = terms.length;
    while (low < high) {
      const middle = low + high >> 1;
      if (terms[middle] < term) low = middle + 1;
      else high = middle;
    }
    return terms[low] === term ? low : -1;
  };
  const index = {
    version: 2,
    documents: parsed.documents,
    vocabulary: terms.length,
    has: (term) => find(term) >= 0,
    terms: () => terms,
    read: (term) => {
      const at = find(term);
      if (at < 0) throw new Error(`the index holds no term ${JSON.stringify(term)}`);
      return readLine(postingsStart + termStarts[at], postingsStart + termStarts[at + 1]);
    }
  };
  return {
    candidates,
    index,
    orders: { order: Int32Array.from(parsed.order), recency: Int32Array.from(parsed.recency) },
    sharedHashPrefixes: parsed.sharedHashPrefixes
  };
}
var NAME_BYTES = 512;
function nameAtStart(text) {
  if (!text.startsWith('{"name":"')) return null;
  for (let at = text.indexOf('"', 9); at !== -1; at = text.indexOf('"', at + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return JSON.parse(text.slice(8, at + 1));
  }
  return null;
}
var CachedEntry = class {
  category;
  observationCount;
  confidence;
  contentHash;
  scope;
  // Where its own line is (no closure per entry: a cache of 50,000 entries keeps 50,000 of them).
  #readLine;
  #start;
  #end;
  #full;
  #name;
  constructor(readLine, start, end, fields) {
    this.#readLine = readLine;
    this.#start = start;
    this.#end = end;
    this.category = fields.category;
    this.observationCount = fields.observationCount;
    this.confidence = fields.confidence;
    this.contentHash = fields.contentHash;
    this.scope = fields.scope;
  }
  get name() {
    if (this.#full !== void 0) return this.#full.name;
    this.#name ??= nameAtStart(this.#readLine(this.#start, Math.min(this.#end, this.#start + NAME_BYTES))) ?? this.#entry().name;
    return this.#name;
  }
  get lastObserved() {
    return this.#entry().lastObserved;
  }
  get filePosition() {
    return this.#entry().filePosition;
  }
  get headerLine() {
    return this.#entry().headerLine;
  }
  get description() {
    return this.#entry().description;
  }
  get metadataText() {
    return this.#entry().metadataText;
  }
  get metadata() {
    return this.#entry().metadata;
  }
  get tags() {
    return this.#entry().tags;
  }
  get origin() {
    return this.#entry().origin;
  }
  /** All of it as a plain entry (what JSON and structured clone see). */
  toJSON() {
    return this.#entry();
  }
  #entry() {
    this.#full ??= JSON.parse(this.#readLine(this.#start, this.#end));
    return this.#full;
  }
};

// src/injection-cache.ts
import { closeSync as closeSync4, constants as constants2, fstatSync as fstatSync2, mkdirSync as mkdirSync2, openSync as openSync4, readSync as readSync2, statSync as statSync3, unlinkSync as unlinkSync3 } from "fs";
import { dirname as dirname4, join as join14 } from "path";
import { CATEGORIES as CATEGORIES3 } from "@iflow-memory/parser";

// src/memory-cache-salt.ts
var MEMORY_CACHE_FORMAT = 2;
var MEMORY_CACHE_SALT = [
  true ? "0.1.0" : "0.0.0-dev",
  `format ${MEMORY_CACHE_FORMAT}`,
  true ? "b140cac53fdfc359" : "unbuilt"
].join("	");

// src/injection-cache.ts
function injectionFingerprint(options) {
  const paths = [
    configPath(options.projectRoot),
    ...CATEGORIES3.map((category) => join14(knowledgeBankDir(options.projectRoot), `${category}.md`)),
    ...CATEGORIES3.map((category) => join14(options.globalStoreDir, `${category}.md`)),
    // Votes change the order, so a cached plan must not outlive one.
    join14(options.globalStoreDir, FEEDBACK_FILE)
  ];
  const settledBefore = BigInt(Math.floor((options.now ?? Date.now()) - SETTLE_MS)) * 1000000n;
  let settled = true;
  let bytes = 0;
  let memory = false;
  const states = paths.map((path, at) => {
    try {
      const info = statSync3(path, { bigint: true, throwIfNoEntry: false });
      if (info === void 0) return `${path}	ENOENT`;
      if (at >= 1 && at <= 2 * CATEGORIES3.length) memory = true;
      if (info.mtimeNs > settledBefore || info.ctimeNs > settledBefore) settled = false;
      bytes += Number(info.size);
      return `${path}	${info.isFile() ? "f" : "o"}${info.size}:${info.mtimeNs}:${info.ctimeNs}:${info.ino}`;
    } catch (error) {
      return `${path}	${error.code ?? "error"}`;
    }
  });
  const files = [options.salt, options.projectRoot, options.globalStoreDir, ...states.slice(0, -1)].join("\n");
  return {
    value: `${files}
${states.at(-1)}`,
    settings: [options.salt, options.projectRoot, options.globalStoreDir, states[0]].join("\n"),
    settled,
    bytes,
    memory,
    configFile: !states[0].endsWith("	ENOENT"),
    withoutFeedback: files
  };
}
function storeCacheDir(globalStoreDir) {
  return join14(globalStoreDir, ".cache");
}
function entryFileCache(globalStoreDir) {
  return { dir: storeCacheDir(globalStoreDir), salt: MEMORY_CACHE_SALT };
}
function injectionCachePath(globalStoreDir, projectRoot) {
  return join14(storeCacheDir(globalStoreDir), `injection-${shortHash(projectRoot)}.json`);
}
function readCachedInjection(path, fingerprint) {
  const cached = readInjectionFile(path);
  return cached?.fingerprint === fingerprint ? cached.injection : null;
}
function readCachedInjectionOrEarlier(path, fingerprint, options) {
  const cached = readInjectionFile(path);
  if (cached === null) return null;
  if (cached.fingerprint === fingerprint.value) return { ...cached, stale: false };
  return options.earlier && cached.fingerprint.startsWith(`${fingerprint.settings}
`) ? { ...cached, stale: true } : null;
}
function readInjectionFile(path) {
  const file = readTextFileSync(path);
  if (!("text" in file)) return null;
  try {
    const cached = JSON.parse(file.text);
    return typeof cached.fingerprint === "string" && isSessionInjection(cached.injection) ? { injection: cached.injection, fingerprint: cached.fingerprint } : null;
  } catch {
    return null;
  }
}
function isSessionInjection(value) {
  return value !== void 0 && value !== null && isMemoryConfig(value.config) && Array.isArray(value.configWarnings) && Array.isArray(value.warnings) && typeof value.plan?.block === "string" && Array.isArray(value.plan.entries);
}
function forgetCachedInjection(globalStoreDir, projectRoot) {
  const path = injectionCachePath(globalStoreDir, projectRoot);
  const fileCache = entryFileCache(globalStoreDir);
  const memoryFiles = [knowledgeBankDir(projectRoot), globalStoreDir].flatMap((directory) => CATEGORIES3.map((category) => join14(directory, `${category}.md`)));
  for (const cached of [path, rankingCachePath(path), planCachePath(path), ...memoryFiles.map((file) => entryFileCachePath(fileCache, file))]) {
    try {
      unlinkSync3(cached);
    } catch {
    }
  }
}
function rankingCachePath(path) {
  return path.replace(/\.json$/, "") + ".ranking.json";
}
var RANKING_CACHE_MAX_BYTES = 1024 * 1024 * 1024;
function readCachedRanking(path, fingerprint) {
  let descriptor;
  try {
    descriptor = openSync4(rankingCachePath(path), constants2.O_RDONLY | (constants2.O_NONBLOCK ?? 0) | (constants2.O_NOCTTY ?? 0));
  } catch {
    return null;
  }
  let ranking = null;
  try {
    const info = fstatSync2(descriptor);
    if (info.isFile() && info.size <= RANKING_CACHE_MAX_BYTES) {
      const header2 = readFirstLine(descriptor);
      if (header2 !== null) {
        const file = { descriptor };
        const bodyStart = header2.bytes + 1;
        ranking = decodeRankingCacheHeader(header2.text, fingerprint, info.size - bodyStart, (start, end) => {
          const line = Buffer.allocUnsafe(end - start);
          for (let read2 = 0; read2 < line.length; ) {
            const count = readSync2(file.descriptor, line, read2, line.length - read2, bodyStart + start + read2);
            if (count === 0) throw new Error(`${rankingCachePath(path)} was cut short after it was opened`);
            read2 += count;
          }
          return line.toString("utf8");
        });
        if (ranking !== null) openFiles.register(file, descriptor);
      }
    }
  } catch {
    ranking = null;
  }
  if (ranking === null) closeSync4(descriptor);
  return ranking;
}
var openFiles = new FinalizationRegistry((descriptor) => {
  try {
    closeSync4(descriptor);
  } catch {
  }
});
function readFirstLine(descriptor) {
  let buffer = Buffer.allocUnsafe(256 * 1024);
  let length = 0;
  for (; ; ) {
    if (length === buffer.length) {
      const larger = Buffer.allocUnsafe(buffer.length * 4);
      buffer.copy(larger);
      buffer = larger;
    }
    const count = readSync2(descriptor, buffer, length, buffer.length - length, length);
    if (count === 0) return null;
    const newline = buffer.subarray(0, length + count).indexOf(10, length);
    length += count;
    if (newline >= 0) return { text: buffer.toString("utf8", 0, newline), bytes: newline };
  }
}
async function writeCachedInjection(path, fingerprint, injection) {
  const { ranking, ...rest } = injection;
  if (ranking !== void 0) await writeFileAtomically(rankingCachePath(path), rankingCachePieces(fingerprint, ranking), { durable: false });
  await writeFileAtomically(path, JSON.stringify({ fingerprint, injection: rest }), { durable: false });
  pruneStoreCache(dirname4(path));
}
function planCachePath(path) {
  return path.replace(/\.json$/, "") + ".plan.json";
}
function readCachedPlan(path, fingerprint) {
  const file = readTextFileSync(planCachePath(path));
  if (!("text" in file)) return null;
  try {
    const cached = JSON.parse(file.text);
    if (cached.fingerprint !== fingerprint || typeof cached.query !== "string" || typeof cached.plan?.block !== "string" || !Array.isArray(cached.plan.entries)) return null;
    return { query: cached.query, plan: cached.plan };
  } catch {
    return null;
  }
}
async function writeCachedPlan(path, fingerprint, query, plan) {
  await writeFileAtomically(planCachePath(path), JSON.stringify({ fingerprint, query, plan }), { durable: false });
}
var REFRESH_CLAIM_MS = 10 * 6e4;
function claimCacheRefresh(path, now2 = Date.now()) {
  const claim = `${path}.refreshing`;
  try {
    mkdirSync2(dirname4(path), { recursive: true, mode: 448 });
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        closeSync4(openSync4(claim, "wx", 384));
        return "claimed";
      } catch (error) {
        if (error.code !== "EEXIST") return "impossible";
        const info = statSync3(claim, { throwIfNoEntry: false });
        if (info !== void 0 && now2 - info.mtimeMs < REFRESH_CLAIM_MS) return "taken";
        releaseCacheRefresh(path);
      }
    }
    return "taken";
  } catch {
    return "impossible";
  }
}
function releaseCacheRefresh(path) {
  try {
    unlinkSync3(`${path}.refreshing`);
  } catch {
  }
}

// src/lessons-store.ts
import { appendFileSync } from "fs";
import { join as join15, resolve as resolve3 } from "path";
import { lessonId, parseLessonLines, serializeLesson } from "@iflow-memory/parser";
var DEFAULT_LESSONS_DIR = ".archeflow/memory";
var LESSONS_STATE_FILE = ".iflow-memory-lessons.json";
async function readLessons(directory) {
  const [lessons, archive] = await readCommittedFiles(directory, [join15(directory, "lessons.jsonl"), join15(directory, "archive.jsonl")], (path, target) => readLessonFile(path, { as: target }));
  const audit = await readAudit(join15(directory, "audit.jsonl"));
  return {
    directory,
    lessons: valid(lessons.lines),
    archive: valid(archive.lines),
    audit: audit.records,
    state: readState(directory),
    warnings: [...lessons.warnings, ...archive.warnings, ...audit.warnings]
  };
}
async function updateLessons(directory, change) {
  const absolute = resolve3(directory);
  return withStoreLock(absolute, async () => {
    const lessonsPath = join15(absolute, "lessons.jsonl");
    const archivePath = join15(absolute, "archive.jsonl");
    const lessonsFile = await readLessonFile(lessonsPath, { forUpdate: true });
    const archiveFile = await readLessonFile(archivePath, { forUpdate: true });
    const audit = await readAudit(join15(absolute, "audit.jsonl"));
    const state = readState(absolute);
    const current = {
      directory: absolute,
      lessons: valid(lessonsFile.lines),
      archive: valid(archiveFile.lines),
      audit: audit.records,
      state,
      warnings: [...lessonsFile.warnings, ...archiveFile.warnings, ...audit.warnings]
    };
    let highest = BigInt(state.highestId);
    for (const lesson of [current.lessons, current.archive].flat()) {
      const number = idNumber(lesson.id);
      if (number !== null && number > highest) highest = number;
    }
    const newId = () => lessonId(++highest);
    const { change: planned, result } = change(current, newId);
    const writes = [];
    if (planned.lessons !== void 0) writes.push({ path: lessonsPath, content: rewriteLessons(lessonsFile.lines, planned.lessons) });
    if (planned.archive !== void 0 && planned.archive.length > 0) {
      writes.push({ path: archivePath, content: appendLessons(archiveFile.text, planned.archive, lessonsFile.lines) });
    }
    const plannedHighest = BigInt(planned.state?.highestId ?? 0);
    const nextHighest = plannedHighest > highest ? plannedHighest : highest;
    const nextState = { ...planned.state ?? state, highestId: nextHighest <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(nextHighest) : nextHighest.toString() };
    if (writes.length > 0 || JSON.stringify(nextState) !== JSON.stringify(state)) {
      writes.push({ path: join15(absolute, LESSONS_STATE_FILE), content: `${JSON.stringify(nextState, null, 2)}
` });
    }
    await commitFiles(absolute, writes);
    if (planned.audit !== void 0 && planned.audit.length > 0) {
      appendFileSync(join15(absolute, "audit.jsonl"), planned.audit.map((record) => `${JSON.stringify(record)}
`).join(""), { mode: 384 });
    }
    return result;
  });
}
async function readLessonFile(readPath, options = {}) {
  const path = options.as ?? readPath;
  const file = await readTextFile(readPath, { lossless: options.forUpdate === true });
  if ("missing" in file) return { lines: [], text: "", warnings: [] };
  if ("warning" in file) {
    if (options.forUpdate === true) throw new StoreError("STORE_UNREADABLE", `cannot change ${path}: ${file.warning.message.replace(/; skipped$/, "")}; nothing was changed \u2014 fix or move the file, then run the command again`);
    return { lines: [], text: "", warnings: [{ path, line: 0, message: file.warning.message }] };
  }
  return { ...parseLessonLines(file.text, path), text: file.text };
}
async function readAudit(path) {
  const file = await readTextFile(path);
  if (!("text" in file)) return { records: [], warnings: "warning" in file ? [{ path, line: 0, message: file.warning.message }] : [] };
  const records = [];
  const warnings = [];
  file.text.split("\n").forEach((raw, index) => {
    if (raw.trim() === "") return;
    try {
      const value = JSON.parse(raw);
      if (value !== null && typeof value === "object" && !Array.isArray(value)) records.push(value);
      else warnings.push({ path, line: index + 1, message: "not a JSON object; skipped" });
    } catch {
      warnings.push({ path, line: index + 1, message: "not valid JSON; skipped" });
    }
  });
  return { records, warnings };
}
function readState(directory) {
  const file = readTextFileSync(join15(directory, LESSONS_STATE_FILE));
  if (!("text" in file)) return { highestId: 0, extractedRuns: [] };
  try {
    const state = JSON.parse(file.text);
    return {
      highestId: Number.isSafeInteger(state.highestId) || typeof state.highestId === "string" && /^\d{1,400}$/.test(state.highestId) ? state.highestId : 0,
      extractedRuns: Array.isArray(state.extractedRuns) ? state.extractedRuns.filter((run) => typeof run === "string") : []
    };
  } catch {
    return { highestId: 0, extractedRuns: [] };
  }
}
function idNumber(id) {
  const match = /^m-(\d{1,400})$/.exec(id);
  return match === null ? null : BigInt(match[1]);
}
function valid(lines) {
  return lines.flatMap((line) => line.kind === "lesson" ? [line.lesson] : []);
}
function rewriteLessons(original, lessons) {
  const queues = /* @__PURE__ */ new Map();
  for (const lesson of lessons) queues.set(lesson.id, [...queues.get(lesson.id) ?? [], lesson]);
  const out = [];
  for (const line of original) {
    if (line.kind === "invalid") {
      out.push(line.raw);
      continue;
    }
    const next = queues.get(line.lesson.id)?.shift();
    if (next === void 0) continue;
    out.push(serializeLesson(next) === serializeLesson(line.lesson) ? line.raw : serializeLesson(next));
  }
  for (const queue of queues.values()) for (const lesson of queue) out.push(serializeLesson(lesson));
  return out.length === 0 ? "" : `${out.join("\n")}
`;
}
function appendLessons(text, lessons, original) {
  const base = text === "" || text.endsWith("\n") ? text : `${text}
`;
  const asRead = (lesson) => {
    const serialized = serializeLesson(lesson);
    const line = original.find((candidate) => candidate.kind === "lesson" && candidate.lesson.id === lesson.id && serializeLesson(candidate.lesson) === serialized);
    return line === void 0 ? serialized : line.raw;
  };
  return base + lessons.map((lesson) => `${asRead(lesson)}
`).join("");
}

// src/manage-lessons.ts
import { capLessonDescription, readReviewFindings } from "@iflow-memory/parser";
import {
  checkLessonEffectiveness,
  decayLessons,
  extractLessons,
  formatKnownIssues,
  lessonTags,
  selectLessons,
  summarizeEffectiveness
} from "@iflow-memory/ranker";
var now = (clock) => isoTimestamp((clock ?? (() => /* @__PURE__ */ new Date()))());
async function addLesson(directory, fields, clock) {
  const description = capLessonDescription(fields.description);
  return updateLessons(directory, ({ lessons }, newId) => {
    const lesson = {
      id: newId(),
      ts: now(clock),
      run_id: "manual",
      type: fields.type ?? "preference",
      source: "user_feedback",
      description,
      frequency: 1,
      severity: fields.severity ?? "info",
      domain: fields.domain ?? "general",
      tags: fields.tags ?? lessonTags(description),
      archetype: null,
      last_seen_run: "",
      runs_since_last_seen: 0,
      extra: {}
    };
    return { change: { lessons: [...lessons, lesson] }, result: lesson };
  });
}
async function forgetLesson(directory, id) {
  return updateLessons(directory, ({ lessons }) => {
    const lesson = lessons.find((candidate) => candidate.id === id);
    if (lesson === void 0) {
      throw new StoreError("LESSON_NOT_FOUND", `cannot forget ${id}: no lesson with that id in ${directory}/lessons.jsonl; see iflow-memory lessons list`);
    }
    return { change: { lessons: lessons.filter((candidate) => candidate !== lesson), archive: [lesson] }, result: lesson };
  });
}
async function extractLessonsFromEvents(directory, eventsPath, options = {}) {
  const events = await readEvents(eventsPath);
  const runId = options.runId ?? events.runId;
  if (runId === null || runId === "") {
    throw new StoreError("NO_RUN_ID", `cannot extract lessons from ${eventsPath}: no event has a run_id; pass --run-id`);
  }
  return updateLessons(directory, ({ lessons, state }, newId) => {
    if (state.extractedRuns.includes(runId)) {
      return { change: {}, result: { runId, added: [], confirmed: [], skipped: 0, alreadyExtracted: true, warnings: events.warnings } };
    }
    const extracted = extractLessons(lessons, events.findings, { runId, now: now(options.clock), newId });
    const byId = (ids) => extracted.lessons.filter((lesson) => ids.includes(lesson.id));
    return {
      change: { lessons: extracted.lessons, state: { ...state, extractedRuns: [...state.extractedRuns, runId] } },
      result: { runId, added: byId(extracted.added), confirmed: byId(extracted.updated), skipped: extracted.skipped, alreadyExtracted: false, warnings: events.warnings }
    };
  });
}
async function decayLessonsInDirectory(directory, options = {}) {
  return updateLessons(directory, ({ lessons, state }) => {
    const runId = options.runId ?? state.extractedRuns.at(-1) ?? null;
    const { kept, archived } = decayLessons(lessons, runId);
    const aged = lessons.filter((lesson) => runId === null || lesson.last_seen_run !== runId).length;
    return { change: { lessons: kept, archive: archived }, result: { runId, aged, archived } };
  });
}
async function injectLessons(directory, options = {}) {
  if (options.auditRunId === void 0) {
    const read2 = await readLessons(directory);
    const lessons = selectLessons(read2.lessons, options);
    return { text: formatKnownIssues(lessons), lessons, warnings: read2.warnings };
  }
  const runId = options.auditRunId;
  return updateLessons(directory, (current) => {
    const lessons = selectLessons(current.lessons, options);
    const audit = {
      ts: now(options.clock),
      run_id: runId,
      domain: options.domain ?? "",
      archetype: options.archetype ?? "",
      lessons_injected: lessons.map((lesson) => lesson.id),
      lesson_count: lessons.length
    };
    return { change: { audit: [audit] }, result: { text: formatKnownIssues(lessons), lessons, warnings: current.warnings } };
  });
}
async function auditCheck(directory, runId, eventsPath, clock) {
  const events = await readEvents(eventsPath);
  return updateLessons(directory, ({ lessons, archive, audit }) => {
    const injected = [
      ...new Set(audit.filter((record) => record.run_id === runId && Array.isArray(record.lessons_injected)).flatMap((record) => record.lessons_injected.filter((id) => typeof id === "string")))
    ];
    const checked = new Set(audit.filter((record) => record.type === "effectiveness_check" && record.run_id === runId).map((record) => record.lesson_id));
    const known = [...lessons, ...archive];
    const toCheck = injected.filter((id) => !checked.has(id)).flatMap((id) => known.filter((lesson) => lesson.id === id).slice(0, 1));
    const checks = checkLessonEffectiveness(toCheck, events.findings, { runId, now: now(clock) });
    return {
      change: { audit: checks },
      result: { checks, alreadyChecked: injected.filter((id) => checked.has(id)), injected: injected.length, warnings: events.warnings }
    };
  });
}
async function readEffectiveness(directory) {
  const { audit } = await readLessons(directory);
  const checks = audit.filter(
    (record) => record.type === "effectiveness_check" && typeof record.lesson_id === "string" && (record.effectiveness === "helpful" || record.effectiveness === "ineffective")
  );
  return summarizeEffectiveness(checks.map((check) => ({ ...check, lesson_desc: typeof check.lesson_desc === "string" ? check.lesson_desc : "" })));
}
async function readEvents(path) {
  const file = await readTextFile(path);
  if ("missing" in file) throw new StoreError("STORE_UNREADABLE", `cannot read events ${path}: no such file; pass the run's events JSONL (ArcheFlow writes .archeflow/events/RUN_ID.jsonl)`);
  if ("warning" in file) throw new StoreError("STORE_UNREADABLE", `cannot read events ${path}: ${file.warning.message}`);
  return readReviewFindings(file.text, path);
}

// src/gather-project-facts.ts
import { readdirSync as readdirSync3 } from "fs";
import { join as join16 } from "path";
import { entryIdentifiers } from "@iflow-memory/ranker";
var SKIPPED_GLOBS = [".git", "node_modules", "dist", "build", "coverage", ".venv", "venv", "__pycache__", "target", ".next", ".turbo", ".cache", "knowledge-bank"].map((folder) => `**/${folder}/**`);
var MAX_FILES = 2e4;
var MAX_SEARCHED_BYTES = 512 * 1024;
async function gatherProjectFacts(projectRoot, name, entries) {
  const { default: glob } = await import("fast-glob");
  const files = (await glob("**/*", { cwd: projectRoot, dot: true, onlyFiles: true, followSymbolicLinks: false, suppressErrors: true, ignore: SKIPPED_GLOBS })).sort().slice(0, MAX_FILES);
  const packageNames = files.filter((file) => file === "package.json" || file.endsWith("/package.json")).flatMap((file) => {
    const read2 = readTextFileSync(join16(projectRoot, file));
    if (!("text" in read2)) return [];
    try {
      const name2 = JSON.parse(read2.text).name;
      return typeof name2 === "string" && name2 !== "" ? [name2] : [];
    } catch {
      return [];
    }
  });
  const wanted = new Set(entries.flatMap((entry) => entryIdentifiers(entry)));
  const identifiers = {};
  for (const file of files) {
    if (wanted.size === 0) break;
    const read2 = readTextFileSync(join16(projectRoot, file), { maxBytes: MAX_SEARCHED_BYTES });
    if (!("text" in read2)) continue;
    const text = read2.text;
    for (const identifier of wanted) {
      if (text.includes(identifier) && new RegExp(`(?<![A-Za-z0-9_])${identifier}(?![A-Za-z0-9_])`).test(text)) {
        identifiers[identifier] = file;
        wanted.delete(identifier);
      }
    }
  }
  let topLevelNames = [];
  try {
    topLevelNames = readdirSync3(projectRoot);
  } catch {
  }
  return { name, topLevelNames, packageNames, files, identifiers };
}

// src/promotion/global-store-text.ts
import { toMetadataValue } from "@iflow-memory/parser";
var TITLES = { "anti-patterns": "Anti-Patterns", heuristics: "Heuristics", patterns: "Patterns" };
var PREFIXES = { "anti-patterns": "Anti-Pattern", heuristics: "Heuristic", patterns: "Pattern" };
function globalStoreHeader(category) {
  return `# Global ${TITLES[category]}

Cross-project learnings promoted from retrospectives. Automatically managed by iflow.
Do not edit manually \u2014 entries are updated during /finish.
`;
}
function formatGlobalEntry(fields) {
  return [
    `### ${PREFIXES[fields.category]}: ${toMetadataValue(fields.name)}`,
    fields.description,
    `- Content-Hash: sha256:${toMetadataValue(fields.contentHash)}`,
    `- Source: ${fields.sources.map(toMetadataValue).join("; ")}`,
    `- Observation count: ${fields.observationCount}`,
    `- Last observed: ${toMetadataValue(fields.lastObserved)}`,
    `- Tags: ${toMetadataValue(fields.tags)}`,
    `- Confidence: ${toMetadataValue(fields.confidence)}`,
    ""
  ].join("\n");
}
function appendGlobalEntry(text, category, entry) {
  const base = text.trim() === "" ? globalStoreHeader(category) : text.endsWith("\n") ? text : `${text}
`;
  return `${base}
${entry}`;
}
function recordObservation(text, headerLine, update) {
  const lines = text.split("\n");
  const start = headerLine - 1;
  let end = start + 1;
  while (end < lines.length && !/^#{1,3} /.test(lines[end])) end++;
  const entry = lines.slice(start, end);
  let tail = entry.length;
  while (tail > 1 && entry[tail - 1].trim() === "") tail--;
  const set = (key, value) => {
    const index = entry.findIndex((line) => new RegExp(`^- ${key}:`, "i").test(line));
    if (index >= 0) {
      entry[index] = `${entry[index].slice(0, key.length + 3)} ${value(entry[index].slice(key.length + 3).trim())}`;
    } else {
      entry.splice(tail, 0, `- ${key}: ${value(null)}`);
      tail++;
    }
  };
  const source = toMetadataValue(update.source);
  set("Source", (old) => old === null || old === "" ? source : `${old}; ${source}`);
  set("Observation count", () => String(update.observationCount));
  set("Last observed", () => toMetadataValue(update.lastObserved));
  return [...lines.slice(0, start), ...entry, ...lines.slice(end)].join("\n");
}
var PROVENANCE_ESCAPES = { "%": "%25", ";": "%3B", ",": "%2C" };
var escapeProvenanceName = (name) => toMetadataValue(name).replace(/[%;,]/g, (character) => PROVENANCE_ESCAPES[character]);
function provenanceOf(project, feature) {
  return feature === void 0 ? escapeProvenanceName(project) : `${escapeProvenanceName(project)}, Feature #${escapeProvenanceName(feature)}`;
}
function sourceItems(source) {
  return (source ?? "").split(";").map((item) => item.trim()).filter((item) => item !== "");
}
function recordMetadata(text, headerLine, key, value, options = {}) {
  const lines = text.split("\n");
  const start = headerLine - 1;
  let end = start + 1;
  while (end < lines.length && !/^#{1,3} /.test(lines[end])) end++;
  const entry = lines.slice(start, end);
  const index = entry.findIndex((line) => line.toLowerCase().startsWith(`- ${key.toLowerCase()}:`));
  value = toMetadataValue(value);
  if (index >= 0 && value === "" && options.removeWhenEmpty === true) {
    entry.splice(index, 1);
  } else if (index >= 0) {
    entry[index] = `- ${key}: ${value}`;
  } else if (value === "" && options.removeWhenEmpty === true) {
    return text;
  } else {
    let tail = entry.length;
    while (tail > 1 && entry[tail - 1].trim() === "") tail--;
    entry.splice(tail, 0, `- ${key}: ${value}`);
  }
  return [...lines.slice(0, start), ...entry, ...lines.slice(end)].join("\n");
}

// src/promotion/promote-entries.ts
import { execFileSync } from "child_process";
import { join as join19 } from "path";
import { CATEGORIES as CATEGORIES4, hashContent, redactEntry as redactEntry2 } from "@iflow-memory/parser";
import { classifyEntry } from "@iflow-memory/ranker";

// src/promotion/global-store-file.ts
import { stat as stat4 } from "fs/promises";
import { join as join18 } from "path";
import { parseKnowledgeBank as parseKnowledgeBank2 } from "@iflow-memory/parser";

// src/promotion/promotion-index.ts
import { createHash } from "crypto";
import { join as join17 } from "path";
import * as zlib from "zlib";
var PROMOTION_INDEX_VERSION = 1;
var MAGIC = "iflow-memory promotion index\n";
var RECORD_BYTES = 30;
function promotionIndexPath(globalStoreDir, category) {
  return join17(storeCacheDir(globalStoreDir), `promotion-${category}.idx`);
}
function createPromotionIndex(entries, tail) {
  const sorted = [...entries].sort((a, b) => a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]);
  const records = Buffer.allocUnsafe(sorted.length * RECORD_BYTES);
  sorted.forEach(([hash, offset], at) => records.write(`${hash} ${String(offset).padStart(12, "0")}
`, at * RECORD_BYTES, "latin1"));
  return { records, ...tail };
}
function updatePromotionIndex(index, change) {
  let records = index.records;
  if (change.shifts.length > 0) {
    records = Buffer.from(records);
    const moved = [];
    change.shifts.reduce((sum, shift) => (moved.push(sum + shift.by), sum + shift.by), 0);
    for (let at = 0; at < records.length; at += RECORD_BYTES) {
      let offset = 0;
      for (let digit = at + 17; digit < at + 29; digit++) offset = offset * 10 + records[digit] - 48;
      let low = 0;
      let high = change.shifts.length;
      while (low < high) {
        const middle = low + high >> 1;
        if (change.shifts[middle].offset < offset) low = middle + 1;
        else high = middle;
      }
      if (low > 0 && moved[low - 1] !== 0) records.write(String(offset + moved[low - 1]).padStart(12, "0"), at + 17, "latin1");
    }
  }
  if (change.added.length > 0) {
    const added = createPromotionIndex(change.added, change.tail).records;
    const pieces = [];
    let copied = 0;
    for (let at = 0; at < added.length; at += RECORD_BYTES) {
      const place = lowerBound(records, added.subarray(at, at + 16)) * RECORD_BYTES;
      pieces.push(records.subarray(copied, place), added.subarray(at, at + RECORD_BYTES));
      copied = place;
    }
    pieces.push(records.subarray(copied));
    records = Buffer.concat(pieces);
  }
  return { records, ...change.tail };
}
function findInPromotionIndex(index, hash) {
  const wanted = Buffer.from(hash, "latin1");
  if (wanted.length !== 16) return void 0;
  const at = lowerBound(index.records, wanted) * RECORD_BYTES;
  if (at >= index.records.length || index.records.compare(wanted, 0, 16, at, at + 16) !== 0) return void 0;
  return Number(index.records.toString("latin1", at + 17, at + 29));
}
function lowerBound(records, hash) {
  let low = 0;
  let high = records.length / RECORD_BYTES;
  while (low < high) {
    const middle = low + high >> 1;
    if (records.compare(hash, 0, 16, middle * RECORD_BYTES, middle * RECORD_BYTES + 16) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}
function readPromotionIndex(path, file) {
  const read2 = readUserFileSync(path, { maxBytes: 1024 * 1024 * 1024 });
  if (!("bytes" in read2)) return null;
  const bytes = Buffer.from(read2.bytes.buffer, read2.bytes.byteOffset, read2.bytes.byteLength);
  if (bytes.toString("latin1", 0, MAGIC.length) !== MAGIC) return null;
  const headerEnd = bytes.indexOf(10, MAGIC.length);
  if (headerEnd < 0) return null;
  let header2;
  try {
    header2 = JSON.parse(bytes.toString("utf8", MAGIC.length, headerEnd));
  } catch {
    return null;
  }
  if (header2.version !== PROMOTION_INDEX_VERSION || header2.checksum !== CHECKSUM_NAME || typeof header2.written !== "number" || typeof header2.content !== "string") return null;
  const records = bytes.subarray(headerEnd + 1);
  if (header2.records !== records.length / RECORD_BYTES || header2.body !== contentChecksum([records])) return null;
  if (header2.stamp !== stampText(file.stamp)) return null;
  const settledBefore = BigInt(Math.floor(header2.written - SETTLE_MS)) * 1000000n;
  const settled = file.stamp.mtimeNs < settledBefore && file.stamp.ctimeNs < settledBefore;
  if (!settled && header2.content !== contentChecksum([file.bytes])) return null;
  return { records, openFence: header2.openFence === true, openComment: header2.openComment === true, checksum: header2.content };
}
async function writePromotionIndex(path, index, file, now2 = Date.now()) {
  try {
    await writeFileAtomically(path, encodePromotionIndex(index, file, now2), { durable: false });
  } catch {
  }
}
function encodePromotionIndex(index, file, now2, version = PROMOTION_INDEX_VERSION) {
  const header2 = {
    version,
    stamp: stampText(file.stamp),
    written: now2,
    checksum: CHECKSUM_NAME,
    content: file.checksum,
    body: contentChecksum([index.records]),
    records: index.records.length / RECORD_BYTES,
    openFence: index.openFence,
    openComment: index.openComment
  };
  return Buffer.concat([Buffer.from(`${MAGIC}${JSON.stringify(header2)}
`, "utf8"), index.records]);
}
var stampText = (stamp) => `${stamp.size}:${stamp.mtimeNs}:${stamp.ctimeNs}:${stamp.ino}`;
var crc322 = zlib.crc32;
var CHECKSUM_NAME = typeof crc322 === "function" ? "crc32" : "sha1";
function contentChecksum(pieces, previous) {
  if (typeof crc322 === "function") return pieces.reduce((value, piece) => crc322(piece, value), previous === void 0 ? 0 : Number.parseInt(previous, 16)).toString(16);
  if (previous !== void 0) return null;
  const hash = createHash("sha1");
  for (const piece of pieces) hash.update(piece);
  return hash.digest("hex");
}

// src/promotion/global-store-file.ts
async function openGlobalStoreFile(directory, category) {
  const path = join18(directory, `${category}.md`);
  const indexPath = promotionIndexPath(directory, category);
  for (let attempt = 1; ; attempt++) {
    const before = await stampOf2(path);
    const file = await readUserFile(path);
    if ("warning" in file) throw new StoreError("STORE_UNREADABLE", `cannot read ${path}: ${file.warning.message}; fix or move it, then promote again`);
    const bytes = "bytes" in file ? Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength) : Buffer.alloc(0);
    const after = await stampOf2(path);
    if (attempt < 4 && !sameStamp(before, after)) continue;
    const stamp = sameStamp(before, after) ? after : null;
    const index = stamp === null ? null : readPromotionIndex(indexPath, { bytes, stamp });
    return new GlobalStoreFile(category, path, indexPath, bytes, stamp, index);
  }
}
var GlobalStoreFile = class {
  constructor(category, path, indexPath, bytes, stamp, index) {
    this.category = category;
    this.path = path;
    this.indexPath = indexPath;
    this.bytes = bytes;
    this.stamp = stamp;
    this.index = index;
  }
  parsed = null;
  regions = /* @__PURE__ */ new Map();
  observations = /* @__PURE__ */ new Map();
  added = [];
  /** The file as `content` made it, the index that goes with it (null: none can be made) and its checksum when known. */
  next = null;
  /** The observations of the file's entry of this content hash (its first with a description), or undefined. */
  find(contentHash) {
    if (this.parsed === null && this.index !== null) {
      const offset = findInPromotionIndex(this.index, contentHash);
      if (offset === void 0) return void 0;
      const region = this.readRegion(offset);
      const entry2 = region === null ? void 0 : readAlone(region.text, this.category, this.path);
      if (region !== null && entry2?.contentHash === contentHash) {
        this.regions.set(contentHash, region);
        return observationsOf(entry2);
      }
      this.parseWhole();
    }
    const entry = this.parseWhole().byHash.get(contentHash);
    return entry === void 0 ? void 0 : observationsOf(entry);
  }
  /** Records that the entry of this content hash (found by `find`) was observed once more. */
  observe(contentHash, observation) {
    this.observations.set(contentHash, observation);
  }
  /** Adds a new entry (`formatGlobalEntry`'s text) at the end of the file. */
  append(contentHash, text) {
    this.added.push({ contentHash, text });
  }
  /**
   * The file's new bytes in pieces (to be written one after the other), or null when nothing
   * changed. Throws (STORE_WRITE_FAILED) when the file would not read back as exactly what this
   * promotion meant to write.
   */
  content() {
    if (this.observations.size === 0 && this.added.length === 0) return null;
    if (this.parsed === null && this.index !== null) this.next = this.changeInPlace(this.index);
    this.next ??= this.changeWhole();
    return this.next.pieces;
  }
  /**
   * Saves the index of the file as it is now (after a commit of `content`, or as it was read),
   * when one was made for it; a file changed since by someone else gets none.
   */
  async saveIndex() {
    let file;
    if (this.next !== null) file = this.next;
    else if (this.parsed !== null && this.stamp !== null) file = { pieces: [this.bytes], index: indexOfParsed(this.bytes, this.parsed), checksum: null };
    else return;
    if (file.index === null) return;
    const stamp = await stampOf2(this.path);
    const size = file.pieces.reduce((sum, piece) => sum + piece.length, 0);
    if (stamp === null || (this.next === null ? !sameStamp(stamp, this.stamp) : stamp.size !== BigInt(size))) return;
    await writePromotionIndex(this.indexPath, file.index, { checksum: file.checksum ?? contentChecksum(file.pieces), stamp });
  }
  // The bytes of the entry whose header starts at `offset`, up to the next heading line: what
  // `recordObservation` changes. Null when that text could be read differently alone than in
  // the file (a comment or a code fence could reach in or out of it).
  readRegion(offset) {
    const end = nextHeading(this.bytes, offset);
    const text = decodeLossless(this.bytes.subarray(offset, end));
    return readsAlike(text) ? { offset, end, text } : null;
  }
  parseWhole() {
    if (this.parsed !== null) return this.parsed;
    const text = decodeLossless(this.bytes);
    const { entries, warnings } = parseKnowledgeBank2(text, { category: this.category, scope: "global", path: this.path });
    const byHash = /* @__PURE__ */ new Map();
    for (const entry of entries) if (entry.description !== "" && !byHash.has(entry.contentHash)) byHash.set(entry.contentHash, entry);
    this.parsed = { text, entries, openFence: warnings.length > 0, byHash };
    this.index = null;
    return this.parsed;
  }
  // The changed entries rewritten in place and the new ones appended, each read back alone;
  // null when that cannot be trusted to be how the whole file reads (then `changeWhole`).
  changeInPlace(index) {
    const appended = this.added.map((entry) => entry.text).join("\n");
    if (this.added.length > 0 && (index.records.length === 0 || index.openFence || index.openComment && appended.includes("-->"))) return null;
    const edits = [];
    for (const [contentHash, observation] of this.observations) {
      const region = this.regions.get(contentHash);
      const text = recordObservation(region.text, 1, observation);
      if (!readsAlike(text)) return null;
      const entry = readAlone(text, this.category, this.path);
      if (entry?.contentHash !== contentHash || entry.observationCount !== observation.observationCount) throw this.wouldNotReadBack();
      edits.push({ offset: region.offset, end: region.end, bytes: encodeLossless(text) });
    }
    edits.sort((a, b) => a.offset - b.offset);
    const pieces = [];
    let copied = 0;
    for (const edit of edits) {
      pieces.push(this.bytes.subarray(copied, edit.offset), edit.bytes);
      copied = edit.end;
    }
    pieces.push(this.bytes.subarray(copied));
    const shifts = edits.map((edit) => ({ offset: edit.offset, by: edit.bytes.length - (edit.end - edit.offset) }));
    const added = [];
    let tail = { openFence: index.openFence, openComment: index.openComment };
    if (this.added.length > 0) {
      const base = pieces.reduce((sum, piece) => sum + piece.length, 0);
      const text = `${this.bytes[this.bytes.length - 1] === 10 ? "" : "\n"}
${appended}`;
      const parsed = parseKnowledgeBank2(text, { category: this.category, scope: "global", path: this.path });
      const actual = parsed.entries.map((entry) => `${entry.contentHash} ${entry.observationCount}`);
      if (actual.join("\n") !== this.added.map((entry) => `${entry.contentHash} 1`).join("\n")) throw this.wouldNotReadBack();
      const bytes = encodeLossless(text);
      for (const [hash, offset] of headerOffsets(bytes, parsed.entries)) added.push([hash, base + offset]);
      tail = { openFence: parsed.warnings.length > 0, openComment: text.includes("<!--") ? commentOpenAtEnd(text) : tail.openComment && !text.includes("-->") };
      pieces.push(bytes);
    }
    const checksum = edits.length === 0 && this.added.length > 0 ? contentChecksum([pieces[pieces.length - 1]], index.checksum) : null;
    return { pieces, index: updatePromotionIndex(index, { shifts, added, tail }), checksum };
  }
  // Whatever the names and texts held, the store must read back as exactly what this promotion
  // meant to write: every entry it had, with only the counts it updated changed, then the entries
  // it added, each observed once. Anything else (an entry's text that opens a comment or a code
  // fence the next entry falls into, a forged header) is refused before a byte is written.
  changeWhole() {
    const parsed = this.parseWhole();
    const counts = /* @__PURE__ */ new Map();
    let text = parsed.text;
    const updates = [...this.observations].map(([contentHash, observation]) => ({ line: parsed.byHash.get(contentHash).origin.line, observation }));
    for (const { line, observation } of updates.sort((a, b) => b.line - a.line)) {
      text = recordObservation(text, line, observation);
      counts.set(line, observation.observationCount);
    }
    if (this.added.length > 0) text = appendGlobalEntry(text, this.category, this.added.map((entry) => entry.text).join("\n"));
    const expected = [
      ...parsed.entries.map((entry) => `${entry.contentHash} ${counts.get(entry.origin.line) ?? entry.observationCount}`),
      ...this.added.map((entry) => `${entry.contentHash} 1`)
    ];
    const { entries: after, warnings } = parseKnowledgeBank2(text, { category: this.category, scope: "global", path: this.path });
    const actual = after.map((entry) => `${entry.contentHash} ${entry.observationCount}`);
    if (actual.length !== expected.length || actual.some((line, at) => line !== expected[at])) throw this.wouldNotReadBack();
    const bytes = encodeLossless(text);
    return { pieces: [bytes], index: indexOfParsed(bytes, { text, entries: after, openFence: warnings.length > 0 }), checksum: null };
  }
  wouldNotReadBack() {
    return new StoreError("STORE_WRITE_FAILED", `cannot promote into ${this.path}: the file would not read back as written (an entry's text opens a comment or a code fence that swallows what follows); nothing was changed \u2014 close it in the knowledge bank, then promote again`);
  }
};
function observationsOf(entry) {
  const source = Object.entries(entry.metadata).find(([key]) => key.toLowerCase() === "source")?.[1];
  return { observationCount: entry.observationCount, sources: sourceItems(source) };
}
function readAlone(text, category, path) {
  const { entries } = parseKnowledgeBank2(text, { category, scope: "global", path });
  return entries.length === 1 ? entries[0] : void 0;
}
var readsAlike = (text) => !text.includes("<!--") && !text.includes("-->") && !text.includes("\r") && !/^ {0,3}[`~]/m.test(text);
function commentOpenAtEnd(text) {
  const open3 = text.lastIndexOf("<!--");
  return open3 >= 0 && text.lastIndexOf("-->") < open3 + 4;
}
function nextHeading(bytes, offset) {
  const HASH = 35;
  const SPACE = 32;
  for (let newline = bytes.indexOf(10, offset); newline >= 0; newline = bytes.indexOf(10, newline + 1)) {
    let at = newline + 1;
    while (at - newline <= 3 && bytes[at] === HASH) at++;
    if (at > newline + 1 && bytes[at] === SPACE) return newline + 1;
  }
  return bytes.length;
}
function headerOffsets(bytes, entries) {
  const seen = /* @__PURE__ */ new Set();
  const offsets = [];
  let line = 1;
  let offset = 0;
  for (const entry of entries) {
    while (line < entry.origin.line && offset >= 0) {
      offset = bytes.indexOf(10, offset) + 1;
      line++;
      if (offset === 0) offset = -1;
    }
    if (offset < 0) break;
    if (entry.description === "" || seen.has(entry.contentHash)) continue;
    seen.add(entry.contentHash);
    offsets.push([entry.contentHash, offset]);
  }
  return offsets;
}
function indexOfParsed(bytes, parsed) {
  if (bytes.includes(13)) return null;
  return createPromotionIndex(headerOffsets(bytes, parsed.entries), { openFence: parsed.openFence, openComment: commentOpenAtEnd(parsed.text) });
}
async function stampOf2(path) {
  const info = await stat4(path, { bigint: true }).catch(() => null);
  return info === null ? null : { size: info.size, mtimeNs: info.mtimeNs, ctimeNs: info.ctimeNs, ino: info.ino };
}
function sameStamp(a, b) {
  return a === null || b === null ? a === b : a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs && a.ino === b.ino;
}

// src/promotion/promote-entries.ts
var PROMOTIONS_FILE = ".promotions.json";
async function promoteEntries(options) {
  const project = options.project ?? projectName(options.projectRoot);
  const provenance = provenanceOf(project, options.feature);
  const now2 = isoTimestamp(options.now ?? /* @__PURE__ */ new Date());
  const bank = await readKnowledgeBank(options.projectRoot, { raw: true });
  const warnings = bank.warnings.map((warning) => `${warning.path}${warning.line === void 0 ? "" : `:${warning.line}`}: ${warning.message}`);
  const run = async () => {
    const state = readState2(options.globalStoreDir);
    const seen = new Set(state.projects[project]?.promoted ?? []);
    const named = new Set([...options.universal ?? [], ...options.projectSpecific ?? []].map((name) => name.toLowerCase()));
    const chosen = select(bank.entries, options.selection ?? { kind: "new" }, seen, options.projectRoot, named).filter((entry) => {
      if (entry.description !== "") return true;
      warnings.push(`"${entry.name}" has no description; not promoted`);
      return false;
    });
    const prepared = chosen.map((entry) => {
      const { entry: redactedEntry, kinds: redacted } = redactEntry2(entry);
      if (redacted.length > 0 && options.strict === true) {
        throw new StoreError("SECRET_FOUND", `refusing to promote "${redactedEntry.name}": it contains a secret (${[...new Set(redacted)].join(", ")}); remove it from the knowledge bank, or promote without --strict to redact it`);
      }
      if (redacted.length > 0) warnings.push(`"${redactedEntry.name}": ${redacted.length} secret${redacted.length === 1 ? "" : "s"} (${[...new Set(redacted)].join(", ")}) replaced by [REDACTED]`);
      const clean = { ...redactedEntry, contentHash: hashContent(redactedEntry.description) };
      return { entry: clean, redacted };
    });
    const facts = await gatherProjectFacts(options.projectRoot, project, prepared.map(({ entry }) => entry));
    const files = Object.fromEntries(await Promise.all(CATEGORIES4.map(async (category) => [category, await openGlobalStoreFile(options.globalStoreDir, category)])));
    const known = /* @__PURE__ */ new Map();
    const find = (contentHash) => {
      if (!known.has(contentHash)) {
        for (const category of CATEGORIES4) {
          const stored = files[category].find(contentHash);
          if (stored === void 0) continue;
          known.set(contentHash, { category, added: false, ...stored });
          break;
        }
      }
      return known.get(contentHash);
    };
    const results = [];
    for (const { entry, redacted } of prepared) {
      const classification = classifyEntry(entry, facts, { universal: options.universal ?? [], projectSpecific: options.projectSpecific ?? [] });
      const base = { name: entry.name, category: entry.category, contentHash: entry.contentHash, kind: classification.kind, reason: classification.reason, redacted };
      if (classification.kind === "project-specific") {
        results.push({ ...base, action: "kept-local", observationCount: null });
        continue;
      }
      const match = find(entry.contentHash);
      if (match === void 0) {
        files[entry.category].append(entry.contentHash, formatGlobalEntry({ category: entry.category, name: entry.name, description: entry.description, contentHash: entry.contentHash, sources: [provenance], observationCount: 1, lastObserved: now2, tags: "universal", confidence: entry.confidence }));
        known.set(entry.contentHash, { category: entry.category, added: true, observationCount: 1, sources: [provenance] });
        results.push({ ...base, action: "added", observationCount: 1 });
      } else if (match.sources.includes(provenance)) {
        results.push({ ...base, action: "already-counted", observationCount: match.observationCount });
      } else {
        match.observationCount += 1;
        match.sources.push(provenance);
        if (!match.added) files[match.category].observe(entry.contentHash, { observationCount: match.observationCount, lastObserved: now2, source: provenance });
        results.push({ ...base, action: "counted", observationCount: match.observationCount });
      }
    }
    const changed = CATEGORIES4.flatMap((category) => {
      const content = files[category].content();
      return content === null ? [] : [{ path: files[category].path, content }];
    });
    const universal = results.filter((result) => result.kind === "universal" && result.action !== "already-counted").length;
    const local = results.filter((result) => result.kind === "project-specific").length;
    const summary = `Memory promotion: ${universal} universal entries promoted to global store, ${local} project-specific entries kept local.`;
    if (options.dryRun !== true && results.length > 0) {
      const promoted = [.../* @__PURE__ */ new Set([...seen, ...chosen.map((entry) => entry.contentHash)])];
      const nextState = { projects: { ...state.projects, [project]: { promoted, lastPromotion: now2 } } };
      await commitFiles(options.globalStoreDir, [...changed, { path: join19(options.globalStoreDir, PROMOTIONS_FILE), content: `${JSON.stringify(nextState, null, 2)}
` }]);
      await Promise.all(CATEGORIES4.map((category) => files[category].saveIndex()));
    }
    return { project, provenance, entries: results, summary, dryRun: options.dryRun === true, warnings };
  };
  return options.dryRun === true ? run() : withStoreLock(options.globalStoreDir, run);
}
function select(entries, selection, seen, projectRoot, named) {
  switch (selection.kind) {
    case "all":
      return [...entries];
    case "entries":
      return [...selection.entries];
    case "new":
      return entries.filter((entry) => !seen.has(entry.contentHash) || named.has(entry.name.toLowerCase()));
    case "names": {
      const wanted = selection.names.map((name) => name.toLowerCase());
      const missing = selection.names.filter((name) => !entries.some((entry) => entry.name.toLowerCase() === name.toLowerCase()));
      if (missing.length > 0) {
        throw new StoreError("ENTRY_NOT_FOUND", `cannot promote ${missing.map((name) => `"${name}"`).join(", ")}: no such entry in ${projectRoot}/docs/knowledge-bank; see iflow-memory inject --limit -1 --json for the names`);
      }
      return entries.filter((entry) => wanted.includes(entry.name.toLowerCase()));
    }
    case "since": {
      const added = headersAddedSince(projectRoot, selection.revision);
      return entries.filter((entry) => added.has(entry.headerLine.trim()));
    }
  }
}
function headersAddedSince(projectRoot, revision) {
  const git = (args) => execFileSync("git", ["-C", projectRoot, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const notARevision = (reason, cause) => new StoreError("GIT_FAILED", `cannot list the entries added since ${JSON.stringify(revision)}: ${reason}; pass a revision of this repository, or use --all`, { cause });
  if (revision.startsWith("-") || revision === "" || /[\0-\x1f]/.test(revision)) throw notARevision("it is not a revision");
  let commit;
  try {
    commit = git(["rev-parse", "--verify", "--quiet", "--end-of-options", `${revision}^{commit}`]).trim();
  } catch (error) {
    const said = (error.stderr ?? "").trim().split("\n")[0];
    throw notARevision(said === void 0 || said === "" ? "git knows no such commit" : `git says: ${said}`, error);
  }
  if (!/^[0-9a-f]{40,64}$/.test(commit)) throw notARevision("git knows no such commit");
  let diff;
  try {
    diff = git(["diff", "--no-color", "--unified=0", commit, "--", "docs/knowledge-bank"]);
  } catch (error) {
    const reason = (error.stderr ?? error.message).trim().split("\n")[0];
    throw new StoreError("GIT_FAILED", `cannot list the entries added since ${revision}: git says: ${reason}; pass a revision of this repository, or use --all`, { cause: error });
  }
  return new Set(diff.split("\n").filter((line) => line.startsWith("+### ")).map((line) => line.slice(1).trim()));
}
function readState2(directory) {
  const file = readTextFileSync(join19(directory, PROMOTIONS_FILE));
  if (!("text" in file)) return { projects: {} };
  try {
    const state = JSON.parse(file.text);
    return { projects: state.projects !== null && typeof state.projects === "object" ? state.projects : {} };
  } catch {
    return { projects: {} };
  }
}

// src/manage-global-store.ts
import { join as join20 } from "path";
import { CATEGORIES as CATEGORIES5, parseKnowledgeBank as parseKnowledgeBank3, redactEntry as redactEntry3 } from "@iflow-memory/parser";
import { CATEGORY_PRIORITY, sortEntries } from "@iflow-memory/ranker";
var ARCHIVE_FILE = ".archive.md";
async function listEntries(options) {
  const scope = options.scope ?? "all";
  const local = scope === "global" ? { entries: [], warnings: [] } : await readKnowledgeBank(options.projectRoot);
  const global = scope === "local" ? { entries: [], warnings: [] } : await readGlobalStore(options.globalStoreDir);
  const entries = CATEGORY_PRIORITY.filter((category) => options.category === void 0 || category === options.category).flatMap((category) => [
    ...sortEntries(local.entries.filter((entry) => entry.category === category)),
    ...sortEntries(global.entries.filter((entry) => entry.category === category))
  ]);
  const warnings = [...local.warnings, ...global.warnings].map((warning) => `${warning.path}${warning.line === void 0 ? "" : `:${warning.line}`}: ${warning.message}`);
  return { entries, warnings };
}
function findEntries(entries, query) {
  const hash = query.trim().toLowerCase().replace(/^sha256:/, "");
  if (/^[0-9a-f]{4,16}$/.test(hash)) {
    const byHash = entries.filter((entry) => entry.contentHash.startsWith(hash));
    if (byHash.length > 0) return byHash;
  }
  return entries.filter((entry) => entry.name.toLowerCase() === query.trim().toLowerCase());
}
function findOneEntry(entries, query, options) {
  const found = findEntries(entries, query);
  const hashes = [...new Set(found.map((entry) => entry.contentHash))];
  if (hashes.length === 0) throw new StoreError("ENTRY_NOT_FOUND", `${options.action}: ${options.notFound}`);
  if (hashes.length > 1) {
    const named = hashes.map((hash) => `sha256:${hash} ${found.find((entry) => entry.contentHash === hash).name}`);
    throw new StoreError("ENTRY_NOT_FOUND", `${options.action}: it matches ${hashes.length} entries (${named.join("; ")}); give more of the hash`);
  }
  return found.find((entry) => entry.scope === options.prefer) ?? found[0];
}
async function forgetGlobalEntry(globalStoreDir, query, now2 = /* @__PURE__ */ new Date()) {
  return withStoreLock(globalStoreDir, async () => {
    const files = await readStoreFiles(globalStoreDir);
    const entry = uniqueEntry(files, query, "forget");
    const text = files[entry.category].text;
    const lines = text.split("\n");
    const start = entry.origin.line - 1;
    let end = start + 1;
    while (end < lines.length && !/^#{1,3} /.test(lines[end])) end++;
    const removed = lines.slice(start, end).join("\n").trimEnd();
    const texts = Object.fromEntries(CATEGORIES5.map((category) => [category, files[category].text]));
    texts[entry.category] = [...lines.slice(0, start), ...lines.slice(end)].join("\n");
    const changed = /* @__PURE__ */ new Set([entry.category]);
    for (const category of CATEGORIES5) {
      const current = parseKnowledgeBank3(texts[category], { category, scope: "global", path: category }).entries;
      for (const other of [...current].reverse()) {
        const contest = Object.entries(other.metadata).find(([key]) => key.toLowerCase() === "contested with")?.[1];
        if (contest === void 0 || !contest.includes(entry.contentHash)) continue;
        const rest = contest.split(";").map((item) => item.trim()).filter((item) => item !== "" && !item.includes(entry.contentHash));
        texts[category] = recordMetadata(texts[category], other.origin.line, "Contested with", rest.join("; "), { removeWhenEmpty: true });
        changed.add(category);
      }
    }
    const archivePath = join20(globalStoreDir, ARCHIVE_FILE);
    const archive = await readTextFile(archivePath);
    const archiveText = "text" in archive ? archive.text : "# Archived global entries\n\nEntries removed with `iflow-memory forget`, kept here instead of deleted.\n";
    const stamp = isoTimestamp(now2);
    await commitFiles(globalStoreDir, [
      ...[...changed].map((category) => ({ path: join20(globalStoreDir, `${category}.md`), content: texts[category] })),
      { path: archivePath, content: `${archiveText.endsWith("\n") ? archiveText : `${archiveText}
`}
${removed}
- Archived: ${stamp} (from ${entry.category}.md)
` }
    ]);
    return entry;
  });
}
async function contestGlobalEntries(globalStoreDir, queryA, queryB) {
  return withStoreLock(globalStoreDir, async () => {
    const files = await readStoreFiles(globalStoreDir);
    const a = uniqueEntry(files, queryA, "contest");
    const b = uniqueEntry(files, queryB, "contest");
    if (a.contentHash === b.contentHash) throw new StoreError("ENTRY_NOT_FOUND", `cannot contest ${queryA} with itself; name two different entries`);
    const texts = Object.fromEntries(CATEGORIES5.map((category) => [category, files[category].text]));
    const edits = [
      { entry: a, other: b },
      { entry: b, other: a }
    ].sort((x, y) => x.entry.category === y.entry.category ? y.entry.origin.line - x.entry.origin.line : 0);
    for (const { entry, other } of edits) {
      const mention = `${other.name} (sha256:${other.contentHash})`;
      const existing = Object.entries(entry.metadata).find(([key]) => key.toLowerCase() === "contested with")?.[1];
      if (existing?.includes(other.contentHash) === true) continue;
      texts[entry.category] = recordMetadata(texts[entry.category], entry.origin.line, "Contested with", existing === void 0 || existing === "" ? mention : `${existing}; ${mention}`);
    }
    const changed = [.../* @__PURE__ */ new Set([a.category, b.category])];
    await commitFiles(globalStoreDir, changed.map((category) => ({ path: join20(globalStoreDir, `${category}.md`), content: texts[category] })));
    return [a, b];
  });
}
async function tagGlobalEntry(globalStoreDir, query, reach) {
  return withStoreLock(globalStoreDir, async () => {
    const files = await readStoreFiles(globalStoreDir);
    const entry = uniqueEntry(files, query, "tag");
    const others = entry.tags.filter((tag) => !["universal", "project-specific"].includes(tag.toLowerCase()));
    const tags = [reach, ...others];
    if (entry.tags.length === tags.length && entry.tags.every((tag, index) => tag === tags[index])) return { entry, changed: false };
    const text = recordMetadata(files[entry.category].text, entry.origin.line, tagsKey(entry), tags.join(", "));
    await commitFiles(globalStoreDir, [{ path: join20(globalStoreDir, `${entry.category}.md`), content: text }]);
    return { entry: { ...entry, tags }, changed: true };
  });
}
function tagsKey(entry) {
  return Object.keys(entry.metadata).find((key) => key.toLowerCase() === "tags") ?? "Tags";
}
async function readStoreFiles(directory) {
  const result = {};
  for (const category of CATEGORIES5) {
    const path = join20(directory, `${category}.md`);
    const file = await readTextFile(path, { lossless: true });
    if ("warning" in file) throw new StoreError("STORE_UNREADABLE", `cannot read ${path}: ${file.warning.message}`);
    const text = "text" in file ? file.text : "";
    result[category] = { text, entries: parseKnowledgeBank3(text, { category, scope: "global", path }).entries.map((entry) => redactEntry3(entry).entry) };
  }
  return result;
}
function uniqueEntry(files, query, verb) {
  const all = CATEGORIES5.flatMap((category) => files[category].entries);
  return findOneEntry(all, query, { action: `cannot ${verb} ${query}`, notFound: "no global entry has that hash or name; see iflow-memory list --scope global" });
}
function readLastInjection(globalStoreDir) {
  const file = readTextFileSync(join20(globalStoreDir, ".last-injection.json"));
  if (!("text" in file)) return null;
  try {
    return JSON.parse(file.text);
  } catch {
    return null;
  }
}

// src/diagnose-memory.ts
import { readdirSync as readdirSync5, statSync as statSync7 } from "fs";
import { join as join25 } from "path";
import { CATEGORIES as CATEGORIES6, findSecrets, redactSecrets } from "@iflow-memory/parser";
import { findContradictions, findDuplicateNames } from "@iflow-memory/ranker";

// src/relevance/plan-session-injection.ts
import { planInjection as planInjection3, PROMPT_RECALL_FLOOR, queryTerms, withIndexFetch } from "@iflow-memory/ranker";
var PROMPT_RECALL_MAX_CHARS = 3e3;
var PROMPT_INDEX_MAX_LINES = 3;
function planSessionStart(injection, query, options = {}) {
  const { config, ranking } = injection;
  const fetch = options.fetch ?? "mcp";
  if (!config.injectionEnabled || config.injectionRanking === "original" || ranking === void 0 || query === null || queryTerms(query).size === 0) {
    return { ...injection.plan, block: withIndexFetch(injection.plan.block, fetch), ranking: "original" };
  }
  const plan = planInjection3({
    candidates: ranking.candidates,
    limit: config.injectionLimit,
    maxChars: config.injectionMaxChars,
    query,
    ranking: rankingOptions(ranking, options),
    sharedHashPrefixes: ranking.sharedHashPrefixes,
    fillWithCore: config.injectionRanking === "relevance",
    ...sessionIndex(config)
  });
  return { ...trackedPlan(plan), block: withIndexFetch(plan.block, fetch), ranking: "relevance" };
}
function planPromptRecall(injection, prompt, given, options = {}) {
  const { config, ranking } = injection;
  if (!config.injectionEnabled || !config.promptRecall || config.promptRecallLimit === 0 || ranking === void 0 || queryTerms({ text: prompt }).size === 0) {
    return { block: "", entries: [], sources: { local: 0, global: 0 }, droppedForBudget: 0 };
  }
  const plan = planInjection3({
    candidates: ranking.candidates,
    limit: config.promptRecallLimit,
    maxChars: Math.min(PROMPT_RECALL_MAX_CHARS, config.injectionMaxChars),
    query: { text: prompt },
    exclude: given,
    ranking: { ...rankingOptions(ranking, options), floor: PROMPT_RECALL_FLOOR },
    sharedHashPrefixes: ranking.sharedHashPrefixes,
    ...config.injectionIndex ? { index: { fetch: options.fetch ?? "mcp", share: 0, maxLines: PROMPT_INDEX_MAX_LINES } } : {}
  });
  return trackedPlan(plan);
}
function rankingOptions(ranking, options) {
  return { index: ranking.index, orders: ranking.orders, ...options.feedback === void 0 ? {} : { feedback: options.feedback } };
}
function sessionQuery(signals) {
  return {
    branch: signals.branch,
    changedFiles: signals.changedFiles,
    commitSubjects: signals.commitSubjects,
    feature: signals.feature === null ? null : { title: signals.feature.title, summary: signals.feature.summary },
    stack: signals.stack
  };
}

// src/signals/gather-session-signals.ts
import { relative, resolve as resolve5, sep } from "path";
import { commitSubjectTopic } from "@iflow-memory/ranker";

// src/signals/find-active-feature.ts
import { readdirSync as readdirSync4 } from "fs";
import { join as join21 } from "path";

// src/signals/parse-feature-spec.ts
var MAX_SUMMARY_CHARS = 500;
function parseFeatureSpec(text) {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let index = 0;
  if (lines[0]?.trim() === "---") {
    const end = lines.findIndex((line, position) => position > 0 && /^(?:---|\.\.\.)\s*$/.test(line));
    if (end !== -1) index = end + 1;
  }
  let title = null;
  let summary = null;
  let paragraph = [];
  const endParagraph = () => {
    if (summary === null && paragraph.length > 0 && !paragraph.every((line) => /^(?:[-*+]\s+)?\*\*[^*]+\*\*/.test(line) || /^\|/.test(line))) {
      summary = paragraph.map((line) => line.replace(/^>\s?/, "")).join(" ");
    }
    paragraph = [];
  };
  for (; index < lines.length && (title === null || summary === null); index += 1) {
    const line = lines[index].trim();
    const fence = /^(`{3,}|~{3,})/.exec(line);
    if (fence !== null) {
      endParagraph();
      const closing = fence[1];
      for (index += 1; index < lines.length && !lines[index].trim().startsWith(closing); index += 1) ;
      continue;
    }
    if (line.startsWith("<!--")) {
      endParagraph();
      while (index < lines.length && !lines[index].includes("-->")) index += 1;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading !== null) {
      endParagraph();
      if (title === null && heading[1] === "#") {
        title = heading[2].replace(/^(?:feature\s+)?spec(?:ification)?(?:\s*[:：]|\s+[—–-])\s*/i, "").trim() || null;
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
function shorten(text, max) {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf(" ", max - 1);
  return `${text.slice(0, cut > max / 2 ? cut : max - 1).trimEnd()}\u2026`;
}

// src/signals/read-capped-file.ts
import { closeSync as closeSync5, openSync as openSync5, readSync as readSync3, statSync as statSync4 } from "fs";
function readCappedFile(path, maxBytes) {
  let descriptor;
  try {
    const info = statSync4(path);
    if (!info.isFile()) return { error: info.isDirectory() ? "is a directory" : "is not a regular file" };
    descriptor = openSync5(path, "r");
    const buffer = Buffer.alloc(Math.min(info.size, maxBytes));
    let length = 0;
    while (length < buffer.length) {
      const read2 = readSync3(descriptor, buffer, length, buffer.length - length, length);
      if (read2 === 0) break;
      length += read2;
    }
    const text = buffer.subarray(0, length).toString("utf8").replace(/^\uFEFF/, "");
    return { text, truncated: info.size > maxBytes };
  } catch (error) {
    const code = error.code;
    if (code === "ENOENT" || code === "ENOTDIR") return { missing: true };
    return { error: code ?? error.message };
  } finally {
    if (descriptor !== void 0) closeSync5(descriptor);
  }
}

// src/signals/find-active-feature.ts
var MAX_FEATURE_FOLDERS = 5e3;
var MAX_SPEC_BYTES = 64 * 1024;
var MAX_META_BYTES = 64 * 1024;
var FEATURE_FOLDER = /^(\d+)-(.+)$/;
function findActiveFeature(options) {
  const featuresDir = join21(options.projectRoot, "docs", "features");
  let folders;
  try {
    folders = readdirSync4(featuresDir, { withFileTypes: true }).filter((entry) => entry.isDirectory() || entry.isSymbolicLink()).slice(0, MAX_FEATURE_FOLDERS).flatMap((entry) => {
      const match = FEATURE_FOLDER.exec(entry.name);
      return match === null ? [] : [{ name: entry.name, id: match[1], slug: match[2] }];
    }).sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  } catch {
    return null;
  }
  if (folders.length === 0) return null;
  const chosen = byBranch(folders, options.branch) ?? byChangedFiles(folders, options.changedFiles, options.projectPrefix ?? "") ?? byMetadata(folders, featuresDir);
  return chosen === null ? null : describeFeature(join21(featuresDir, chosen.name), chosen.id, chosen.slug);
}
function byBranch(folders, branch) {
  if (branch === null) return null;
  const lower = branch.toLowerCase();
  const named = folders.filter((folder) => containsWord(lower, folder.name.toLowerCase()));
  if (named.length > 0) return named.reduce((best, folder) => folder.name.length > best.name.length ? folder : best);
  for (const number of branch.match(/\d+/g) ?? []) {
    const found = folders.find((folder) => folder.id === number);
    if (found !== void 0) return found;
  }
  return null;
}
function byChangedFiles(folders, changedFiles, projectPrefix) {
  const prefix = `${projectPrefix}docs/features/`;
  const counts = /* @__PURE__ */ new Map();
  for (const file of changedFiles) {
    if (!file.startsWith(prefix)) continue;
    const name = file.slice(prefix.length).split("/")[0];
    if (name !== "") counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  let best = null;
  for (const folder of folders) {
    const count = counts.get(folder.name) ?? 0;
    if (count === 0) continue;
    const bestCount = best === null ? 0 : counts.get(best.name);
    if (count > bestCount || count === bestCount && Number(folder.id) >= Number(best.id)) best = folder;
  }
  return best;
}
function byMetadata(folders, featuresDir) {
  const active = folders.filter((folder) => {
    const read2 = readCappedFile(join21(featuresDir, folder.name, ".meta.json"), MAX_META_BYTES);
    if (!("text" in read2) || read2.truncated) return false;
    try {
      const meta = JSON.parse(read2.text);
      return typeof meta.status === "string" && meta.status.toLowerCase() === "active";
    } catch {
      return false;
    }
  });
  return active.length === 1 ? active[0] : null;
}
function describeFeature(folder, id, slug) {
  const read2 = readCappedFile(join21(folder, "spec.md"), MAX_SPEC_BYTES);
  const { title, summary } = "text" in read2 ? parseFeatureSpec(read2.text) : { title: null, summary: "" };
  return { id, slug, title: title ?? slug.replace(/[-_]+/g, " "), summary };
}
function containsWord(haystack, needle) {
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    const before = haystack[at - 1];
    const after = haystack[at + needle.length];
    if ((before === void 0 || !/[a-z0-9]/.test(before)) && (after === void 0 || !/[a-z0-9]/.test(after))) return true;
  }
  return false;
}

// src/signals/parse-git-log.ts
var GIT_LOG_FORMAT = "--format=%x1e%s";
function parseGitLog(output) {
  return output.split("").slice(1).map((record) => {
    const [subject = "", ...rest] = record.split("\0");
    const files = rest.map((file) => file.replace(/^\n/, "")).filter((file) => file !== "");
    return { subject: subject.trim(), files };
  });
}

// src/signals/parse-git-status.ts
function parseGitStatus(output) {
  const records = output.split("\0");
  const paths = [];
  for (let index = 0; index < records.length; index += 1) {
    const record = records[index];
    if (record.length < 4 || record[2] !== " ") continue;
    paths.push(record.slice(3));
    if ("RC".includes(record[0]) || "RC".includes(record[1])) index += 1;
  }
  return paths;
}

// src/signals/read-git-state.ts
import { readFileSync, statSync as statSync5 } from "fs";
import { dirname as dirname5, isAbsolute, join as join22, resolve as resolve4 } from "path";
var MAX_HEAD_BYTES = 64 * 1024;
var MAX_PACKED_REFS_BYTES = 8 * 1024 * 1024;
function readGitState(projectRoot) {
  const location = findGitDirectory(resolve4(projectRoot));
  if (location === null) return null;
  const { repositoryRoot, gitDir } = location;
  const notes = [];
  let commonDir = gitDir;
  const commonDirText = readSmall(join22(gitDir, "commondir"), MAX_HEAD_BYTES);
  if (commonDirText !== null && commonDirText.trim() !== "") {
    const named = commonDirText.trim();
    commonDir = isAbsolute(named) ? named : resolve4(gitDir, named);
  }
  let packedRefs;
  const packed = () => {
    if (packedRefs !== void 0) return packedRefs;
    packedRefs = /* @__PURE__ */ new Map();
    const text = readSmall(join22(commonDir, "packed-refs"), MAX_PACKED_REFS_BYTES);
    if (text === null) return packedRefs;
    for (const line of text.split("\n")) {
      const match = /^([0-9a-f]{40,64}) (\S+)$/.exec(line);
      if (match !== null) packedRefs.set(match[2], match[1]);
    }
    return packedRefs;
  };
  const resolveRef = (name, depth2 = 0) => {
    if (depth2 > 5) return null;
    const loose = readSmall(join22(name === "HEAD" ? gitDir : commonDir, name), MAX_HEAD_BYTES)?.trim();
    if (loose !== void 0 && loose !== "") {
      if (loose.startsWith("ref:")) return resolveRef(loose.slice(4).trim(), depth2 + 1);
      return /^[0-9a-f]{40,64}$/.test(loose) ? loose : null;
    }
    return packed()?.get(name) ?? null;
  };
  const head = readSmall(join22(gitDir, "HEAD"), MAX_HEAD_BYTES)?.trim() ?? "";
  let branch = null;
  let headCommit = null;
  let reftable = false;
  if (head.startsWith("ref:")) {
    const ref = head.slice(4).trim();
    if (ref === "refs/heads/.invalid") {
      reftable = true;
      notes.push("the repository keeps its refs in a reftable; branch not read");
    } else {
      branch = ref.startsWith("refs/heads/") ? ref.slice("refs/heads/".length) : null;
      headCommit = resolveRef(ref);
    }
  } else if (/^[0-9a-f]{40,64}$/.test(head)) {
    headCommit = head;
  } else {
    notes.push(".git/HEAD cannot be read; branch skipped");
  }
  let defaultRef = null;
  let defaultBranch = null;
  let defaultCommit = null;
  const remoteHead = readSmall(join22(commonDir, "refs/remotes/origin/HEAD"), MAX_HEAD_BYTES)?.trim();
  if (remoteHead?.startsWith("ref:") === true) {
    const target = remoteHead.slice(4).trim();
    const commit = target.startsWith("refs/remotes/origin/") ? resolveRef(target) : null;
    if (commit !== null) {
      defaultRef = target;
      defaultBranch = target.slice("refs/remotes/origin/".length);
      defaultCommit = commit;
    }
  }
  for (const candidate of ["main", "master"]) {
    if (defaultRef !== null) break;
    const commit = resolveRef(`refs/heads/${candidate}`);
    if (commit !== null) {
      defaultRef = `refs/heads/${candidate}`;
      defaultBranch = candidate;
      defaultCommit = commit;
    }
  }
  const onDefaultBranch = defaultRef !== null && (branch !== null ? branch === defaultBranch : headCommit !== null && headCommit === defaultCommit);
  const hasCommits = headCommit !== null || reftable;
  return { repositoryRoot, commonDir, branch, hasCommits, headCommit, defaultRef, defaultCommit, onDefaultBranch, notes };
}
function findGitDirectory(start) {
  for (let directory = start; ; directory = dirname5(directory)) {
    const dotGit = join22(directory, ".git");
    try {
      const info = statSync5(dotGit);
      if (info.isDirectory()) return { repositoryRoot: directory, gitDir: dotGit };
      if (info.isFile()) {
        const match = /^gitdir:\s*(.+?)\s*$/m.exec(readSmall(dotGit, MAX_HEAD_BYTES) ?? "");
        if (match !== null) return { repositoryRoot: directory, gitDir: resolve4(directory, match[1]) };
      }
    } catch {
    }
    if (dirname5(directory) === directory) return null;
  }
}
function readSmall(path, maxBytes) {
  try {
    if (statSync5(path).size > maxBytes) return null;
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

// src/signals/read-project-stack.ts
import { existsSync as existsSync2 } from "fs";
import { join as join23 } from "path";

// src/signals/parse-toml-keys.ts
var KEY_PART = /"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+)/g;
var KEY = /^((?:"(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)(?:\s*\.\s*(?:"(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+))*)\s*=\s*(.*)$/;
function parseTomlKeys(text) {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const keys = [];
  let table = "";
  for (let index = 0; index < lines.length; ) {
    const line = withoutComment(lines[index]).trim();
    index += 1;
    if (line === "") continue;
    const header2 = /^\[\[?\s*(.+?)\s*\]\]?$/.exec(line);
    if (header2 !== null) {
      table = keyParts(header2[1]).join(".");
      continue;
    }
    const assignment = KEY.exec(line);
    if (assignment === null) continue;
    let value = assignment[2].trim();
    const quotes = value.startsWith('"""') ? '"""' : value.startsWith("'''") ? "'''" : null;
    if (quotes !== null) {
      if (!value.slice(3).includes(quotes)) {
        while (index < lines.length && !lines[index].includes(quotes)) index += 1;
        index += 1;
      }
      value = "";
    } else {
      while (depth(value) > 0 && index < lines.length) {
        value += `
${withoutComment(lines[index])}`;
        index += 1;
      }
    }
    keys.push({ table, key: keyParts(assignment[1]), value: value.trim() });
  }
  return keys;
}
function tomlStrings(value) {
  return [...value.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)].map((match) => match[1]?.replace(/\\(["\\])/g, "$1") ?? match[2] ?? "");
}
function keyParts(key) {
  return [...key.matchAll(KEY_PART)].map((match) => match[1] ?? match[2] ?? match[3] ?? "");
}
function withoutComment(line) {
  let quote = null;
  for (let index = 0; index < line.length; index += 1) {
    const character = line[index];
    if (quote === null) {
      if (character === "#") return line.slice(0, index);
      if (character === '"' || character === "'") quote = character;
    } else if (character === "\\" && quote === '"') {
      index += 1;
    } else if (character === quote) {
      quote = null;
    }
  }
  return line;
}
function depth(value) {
  let open3 = 0;
  let quote = null;
  for (let index = 0; index < value.length; index += 1) {
    const character = value[index];
    if (quote === null) {
      if (character === '"' || character === "'") quote = character;
      else if (character === "[" || character === "{") open3 += 1;
      else if (character === "]" || character === "}") open3 -= 1;
    } else if (character === "\\" && quote === '"') {
      index += 1;
    } else if (character === quote) {
      quote = null;
    }
  }
  return open3;
}

// src/signals/read-project-stack.ts
var MAX_STACK_ITEMS = 40;
var MAX_MANIFEST_BYTES = 1024 * 1024;
function readProjectStack(projectRoot) {
  const markers = [];
  const dependencies = [];
  const names = { node: null, python: null, rust: null, go: null };
  const skipped = [];
  const present = /* @__PURE__ */ new Set();
  const read2 = (file) => {
    const result = readCappedFile(join23(projectRoot, file), MAX_MANIFEST_BYTES);
    if ("missing" in result) return null;
    present.add(file);
    if ("error" in result) skipped.push(`${file} cannot be read (${result.error}); its name and dependencies skipped`);
    else if (result.truncated) skipped.push(`${file} is over ${MAX_MANIFEST_BYTES} bytes; its name and dependencies skipped`);
    else return result.text;
    return null;
  };
  let packageDependencies = [];
  const packageJson = read2("package.json");
  if (present.has("package.json")) markers.push("node");
  if (packageJson !== null) {
    try {
      const manifest = JSON.parse(packageJson);
      names.node = typeof manifest.name === "string" ? manifest.name.trim() : null;
      packageDependencies = [manifest.dependencies, manifest.devDependencies].flatMap(
        (table) => typeof table === "object" && table !== null && !Array.isArray(table) ? Object.keys(table) : []
      );
    } catch {
      skipped.push("package.json is not valid JSON; its name and dependencies skipped");
    }
  }
  if (existsSync2(join23(projectRoot, "tsconfig.json")) || packageDependencies.includes("typescript")) markers.push("typescript");
  for (const name2 of packageDependencies.filter((name3) => !name3.startsWith("@types/"))) dependencies.push(name2);
  const pyproject = read2("pyproject.toml");
  if (present.has("pyproject.toml") || existsSync2(join23(projectRoot, "setup.py")) || existsSync2(join23(projectRoot, "requirements.txt"))) markers.push("python");
  if (pyproject !== null) {
    const keys = parseTomlKeys(pyproject);
    names.python = stringValue(keys, "project", "name") ?? stringValue(keys, "tool.poetry", "name");
    for (const { table, key, value } of keys) {
      if (table === "project" && key.join(".") === "dependencies") {
        for (const requirement of tomlStrings(value)) {
          const name2 = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(requirement)?.[1];
          if (name2 !== void 0) dependencies.push(name2);
        }
      }
    }
    for (const name2 of tableKeys(keys, /^tool\.poetry\.(?:dependencies|dev-dependencies|group\.[^.]+\.dependencies)$/).filter((name3) => name3 !== "python")) dependencies.push(name2);
  }
  const goMod = read2("go.mod");
  if (present.has("go.mod")) markers.push("go");
  if (goMod !== null) {
    const modulePath = /^\s*module\s+"?([^\s"]+)"?/m.exec(goMod)?.[1];
    names.go = modulePath === void 0 ? null : lastModuleSegment(modulePath);
    for (const name2 of readGoRequirements(goMod)) dependencies.push(name2);
  }
  const cargo = read2("Cargo.toml");
  if (present.has("Cargo.toml")) markers.push("rust");
  if (cargo !== null) {
    const keys = parseTomlKeys(cargo);
    names.rust = stringValue(keys, "package", "name");
    for (const name2 of tableKeys(keys, /^(?:workspace\.)?dependencies$/)) dependencies.push(name2);
  }
  const stack = [.../* @__PURE__ */ new Set([...markers, ...dependencies.map((name2) => name2.trim()).filter((name2) => name2 !== "")])].slice(0, MAX_STACK_ITEMS);
  const name = [names.node, names.python, names.rust, names.go].find((candidate) => candidate !== null && candidate !== "") ?? null;
  return { name, stack, skipped };
}
function stringValue(keys, table, key) {
  const found = keys.find((entry) => entry.table === table && entry.key.join(".") === key);
  if (found === void 0 || !/^["']/.test(found.value)) return null;
  return tomlStrings(found.value)[0]?.trim() || null;
}
function tableKeys(keys, table) {
  const names = [];
  for (const entry of keys) {
    if (table.test(entry.table)) names.push(entry.key[0]);
    const dot = entry.table.lastIndexOf(".");
    if (dot !== -1 && table.test(entry.table.slice(0, dot))) names.push(entry.table.slice(dot + 1));
  }
  return names;
}
function readGoRequirements(text) {
  const names = [];
  let inBlock = false;
  for (const rawLine of text.replace(/\r\n?/g, "\n").split("\n")) {
    const line = rawLine.trim();
    let requirement = null;
    if (inBlock) {
      if (line.startsWith(")")) inBlock = false;
      else requirement = line;
    } else if (/^require\s*\($/.test(line)) {
      inBlock = true;
    } else if (line.startsWith("require ")) {
      requirement = line.slice("require ".length).trim();
    }
    if (requirement === null || requirement === "" || requirement.startsWith("//") || /\/\/\s*indirect\b/.test(requirement)) continue;
    const path = /^"?([^\s"]+)"?/.exec(requirement)?.[1];
    if (path !== void 0) names.push(lastModuleSegment(path));
  }
  return names;
}
function lastModuleSegment(modulePath) {
  const segments = modulePath.split("/").filter((segment) => segment !== "");
  const last = segments.at(-1) ?? modulePath;
  return /^v\d+$/.test(last) && segments.length > 1 ? segments.at(-2) : last;
}

// src/signals/git-log-cache.ts
import { statSync as statSync6 } from "fs";
import { join as join24 } from "path";
function gitLogKey(git, args, env) {
  if (git.headCommit === null) return null;
  const stamps = ["shallow", "info/grafts", "refs/replace", "packed-refs", "config"].map((name) => {
    try {
      const info = statSync6(join24(git.commonDir, name), { bigint: true, throwIfNoEntry: false });
      return info === void 0 ? `${name} -` : `${name} ${info.size}:${info.mtimeNs}:${info.ctimeNs}:${info.ino}`;
    } catch (error) {
      return `${name} ${error.code ?? "?"}`;
    }
  });
  const gitVariables = Object.keys(env).filter((key) => key.startsWith("GIT_")).sort().map((key) => `${key}=${env[key]}`);
  return [args.join("	"), git.headCommit, git.defaultRef ?? "-", git.defaultCommit ?? "-", ...stamps, ...gitVariables].join("\n");
}
function gitLogCachePath(cacheDir, repositoryRoot) {
  return join24(cacheDir, `git-log-${shortHash(repositoryRoot)}.json`);
}
function readCachedGitLog(cacheDir, repositoryRoot, key) {
  const file = readTextFileSync(gitLogCachePath(cacheDir, repositoryRoot));
  if (!("text" in file)) return null;
  try {
    const cached = JSON.parse(file.text);
    return cached.repositoryRoot === repositoryRoot && cached.key === key && typeof cached.stdout === "string" ? cached.stdout : null;
  } catch {
    return null;
  }
}
function writeCachedGitLog(cacheDir, repositoryRoot, key, stdout) {
  writeFileAtomically(gitLogCachePath(cacheDir, repositoryRoot), JSON.stringify({ repositoryRoot, key, stdout }), { durable: false }).catch(() => void 0);
}

// src/signals/run-git.ts
var DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;
function gitEnvironment(env) {
  const result = {};
  for (const [key, value] of Object.entries(env)) {
    if (["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_PREFIX", "GIT_NAMESPACE"].includes(key)) continue;
    result[key] = value;
  }
  return { ...result, GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0", GIT_PAGER: "cat", PAGER: "cat" };
}
function startGit(args, options) {
  const { spawn } = options;
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const maxRecords = options.maxRecords ?? Number.POSITIVE_INFINITY;
  const ownGroup = process.platform !== "win32";
  let outcome = null;
  let notify = null;
  const finish = (result) => {
    if (outcome !== null) return;
    outcome = result;
    notify?.(result);
  };
  let child;
  try {
    child = spawn("git", args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
      // Its own process group, so that a kill reaches what it started (a wrapper script's children).
      detached: ownGroup,
      windowsHide: true
    });
  } catch (error) {
    finish({ ok: false, reason: "failed", message: error.message });
    return { result: () => Promise.resolve(outcome), stop: () => void 0 };
  }
  const chunks = [];
  let size = 0;
  let records = 0;
  let stderr = "";
  const stop = () => {
    try {
      if (ownGroup && child.pid !== void 0) process.kill(-child.pid, "SIGKILL");
      else child.kill("SIGKILL");
    } catch {
    }
    child.stdout?.destroy();
    child.stderr?.destroy();
  };
  const output = () => Buffer.concat(chunks, size).toString("utf8");
  child.stdout?.on("data", (chunk) => {
    if (outcome !== null) return;
    chunks.push(chunk);
    size += chunk.length;
    if (maxRecords !== Number.POSITIVE_INFINITY) {
      for (let index = chunk.indexOf(0); index !== -1; index = chunk.indexOf(0, index + 1)) records += 1;
    }
    if (size >= maxOutputBytes || records >= maxRecords) {
      stop();
      finish({ ok: true, stdout: output(), truncated: true });
    }
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk) => {
    if (stderr.length < 4096) stderr += chunk;
  });
  child.on("error", (error) => {
    stop();
    finish(error.code === "ENOENT" ? { ok: false, reason: "missing", message: "git is not on PATH" } : { ok: false, reason: "failed", message: error.message });
  });
  child.on("close", (code, signal) => {
    if (code === 0) {
      finish({ ok: true, stdout: output(), truncated: false });
      return;
    }
    const firstLine = stderr.split("\n").find((line) => line.trim() !== "")?.trim();
    finish({ ok: false, reason: "failed", message: firstLine ?? (signal === null ? `exited with ${code}` : `killed by ${signal}`) });
  });
  return {
    stop() {
      if (outcome !== null) return;
      stop();
      finish({ ok: false, reason: "failed", message: "stopped: its answer was not wanted" });
    },
    result(deadline) {
      if (outcome !== null) return Promise.resolve(outcome);
      return new Promise((resolve7) => {
        const timer = setTimeout(() => {
          stop();
          finish({ ok: false, reason: "timeout", message: "did not answer in time" });
        }, Math.max(0, deadline - Date.now()));
        notify = (result) => {
          clearTimeout(timer);
          resolve7(result);
        };
      });
    }
  };
}

// src/signals/gather-session-signals.ts
var DEFAULT_SIGNALS_TIMEOUT_MS = 200;
var MAX_CHANGED_FILES = 200;
var MAX_BRANCH_SUBJECTS = 20;
var DEFAULT_BRANCH_SUBJECTS = 5;
var MAX_BRANCH_COMMITS = 50;
var DEFAULT_BRANCH_COMMITS = 20;
async function gatherSessionSignals(options) {
  return startSessionSignals(options).signals();
}
function startSessionSignals(options) {
  const timeoutMs = options.timeoutMs !== void 0 && Number.isFinite(options.timeoutMs) && options.timeoutMs >= 0 ? options.timeoutMs : DEFAULT_SIGNALS_TIMEOUT_MS;
  const projectRoot = resolve5(options.projectRoot);
  const skipped = [];
  let git = null;
  try {
    git = readGitState(projectRoot);
    if (git === null) skipped.push("not a git repository");
  } catch (error) {
    skipped.push(`.git cannot be read (${error.message}); git signals skipped`);
  }
  const branchRange = git !== null && git.defaultRef !== null && !git.onDefaultBranch;
  let statusRun = null;
  let logRun = null;
  let cachedLog = null;
  let logKey = null;
  let started;
  let cancelled = false;
  if (git !== null) {
    const repository = git;
    for (const note of repository.notes) skipped.push(note);
    const env = gitEnvironment(options.env ?? process.env);
    const logArgs = repository.hasCommits ? [
      ...["--no-pager", "log", "--no-color", "--no-show-signature", "-z", GIT_LOG_FORMAT],
      ...branchRange ? ["--no-merges", "--no-renames", "--name-only", "-n", String(MAX_BRANCH_COMMITS), `${repository.defaultRef}..HEAD`, "--"] : ["--no-merges", "-n", String(DEFAULT_BRANCH_COMMITS), "HEAD", "--"]
    ] : null;
    if (logArgs !== null && options.cacheDir !== void 0) {
      logKey = gitLogKey(repository, logArgs, env);
      cachedLog = logKey === null ? null : readCachedGitLog(options.cacheDir, repository.repositoryRoot, logKey);
    }
    const launch = (spawn) => {
      if (timeoutMs === 0 || cancelled) return;
      const run = { cwd: repository.repositoryRoot, env, spawn };
      statusRun = startGit(["--no-pager", "status", "--porcelain=v1", "-z", "--untracked-files=normal", "--no-renames", "--ignore-submodules=dirty"], {
        ...run,
        maxRecords: MAX_CHANGED_FILES
      });
      if (logArgs !== null && cachedLog === null) logRun = startGit(logArgs, run);
    };
    if (options.spawn !== void 0) launch(options.spawn);
    else started = import("child_process").then(({ spawn }) => launch(spawn));
  }
  let project = projectName(projectRoot);
  let stack = [];
  try {
    const found = readProjectStack(projectRoot);
    project = found.name ?? project;
    stack = found.stack;
    for (const note of found.skipped) skipped.push(note);
  } catch (error) {
    skipped.push(`the project's manifests cannot be read (${error.message}); stack skipped`);
  }
  return {
    cancel: () => {
      cancelled = true;
      statusRun?.stop();
      logRun?.stop();
    },
    signals: async () => {
      const deadline = Date.now() + timeoutMs;
      await started;
      const answer = async (run) => run === null ? git === null ? null : { ok: false, reason: "timeout", message: "no time left" } : run.result(deadline);
      const [status, log] = await Promise.all([
        answer(statusRun),
        cachedLog !== null ? { ok: true, stdout: cachedLog, truncated: false } : git?.hasCommits === true ? answer(logRun) : null
      ]);
      if (log?.ok === true && !log.truncated && cachedLog === null && logKey !== null && options.cacheDir !== void 0) {
        writeCachedGitLog(options.cacheDir, git.repositoryRoot, logKey, log.stdout);
      }
      return settleSignals({ projectRoot, git, branchRange, status, log, project, stack, skipped, timeoutMs });
    }
  };
}
function settleSignals(gathered) {
  const { projectRoot, git, branchRange, status, log, project, stack, skipped, timeoutMs } = gathered;
  const changed = /* @__PURE__ */ new Set();
  let commitSubjects = [];
  const missing = (run) => run?.ok === false && run.reason === "missing";
  if (missing(status) || missing(log)) skipped.push("git is not on PATH; changed files and commit subjects skipped");
  if (status?.ok === true) for (const file of parseGitStatus(completeRecords(status))) changed.add(file);
  else if (status?.ok === false && !missing(status)) skipped.push(`${describeFailure("git status", status, timeoutMs)}; changed files skipped`);
  if (log?.ok === true) {
    const commits = parseGitLog(completeRecords(log));
    commitSubjects = commits.map((commit) => commit.subject).filter((subject) => commitSubjectTopic(subject) !== null).slice(0, branchRange ? MAX_BRANCH_SUBJECTS : DEFAULT_BRANCH_SUBJECTS);
    if (branchRange) for (const file of commits.flatMap((commit) => commit.files)) changed.add(file);
  } else if (log?.ok === false && !missing(log)) {
    skipped.push(`${describeFailure("git log", log, timeoutMs)}; ${branchRange ? "commit subjects and the branch's committed files" : "commit subjects"} skipped`);
  }
  const changedFiles = [...changed].slice(0, MAX_CHANGED_FILES);
  let feature = null;
  try {
    const projectPrefix = git === null ? "" : relative(git.repositoryRoot, projectRoot).split(sep).join("/");
    feature = findActiveFeature({ projectRoot, branch: git?.branch ?? null, changedFiles, projectPrefix: projectPrefix === "" ? "" : `${projectPrefix}/` });
  } catch (error) {
    skipped.push(`docs/features cannot be read (${error.message}); feature skipped`);
  }
  return { project, branch: git?.branch ?? null, changedFiles, commitSubjects, feature, stack, skipped };
}
function completeRecords(run) {
  return run.truncated ? run.stdout.slice(0, run.stdout.lastIndexOf("\0") + 1) : run.stdout;
}
function describeFailure(command, run, timeoutMs) {
  if (run.reason === "timeout") return `${command} did not answer within ${timeoutMs} ms`;
  return `${command} failed (${run.message})`;
}

// src/diagnose-memory.ts
async function diagnoseMemory(options) {
  const checks = [];
  const config = await readConfig(options.projectRoot);
  checks.push({ name: "config", status: config.warnings.length === 0 ? "ok" : "problem", details: config.warnings.length === 0 ? [`${config.path}: valid, or absent (the defaults)`] : config.warnings.map(formatWarning) });
  const global = await readGlobalStore(options.globalStoreDir);
  const store = storeHealth(options.globalStoreDir, global.warnings.map(formatWarning));
  checks.push(store);
  const bank = await readKnowledgeBank(options.projectRoot, { raw: true });
  checks.push({ name: "knowledge bank", status: bank.warnings.length === 0 ? "ok" : "warning", details: bank.warnings.length === 0 ? [`${bank.entries.length} entries`] : bank.warnings.map(formatWarning) });
  const raw = store.status === "problem" ? { entries: [] } : await readEntryFiles(options.globalStoreDir, "global");
  const all = [...redactEntriesRead(bank, "the knowledge bank").entries, ...global.entries];
  const duplicates = findDuplicateNames(all);
  checks.push({
    name: "duplicate names",
    status: duplicates.length === 0 ? "ok" : "warning",
    details: duplicates.map((group) => `"${group.name}": ${group.entries.map((entry) => `sha256:${entry.contentHash} (${entry.scope})`).join(", ")}`)
  });
  const contradictions = findContradictions(all);
  checks.push({
    name: "contradictions",
    status: contradictions.length === 0 ? "ok" : "warning",
    details: contradictions.map((pair) => `"${pair.a.name}" vs "${pair.b.name}" (${Math.round(pair.overlap * 100)}% shared words; iflow-memory contest ${pair.a.contentHash} ${pair.b.contentHash} if they do contradict)`)
  });
  const secrets = [...bank.entries, ...raw.entries].flatMap((entry) => {
    const kinds = [...new Set(findSecrets(`${entry.headerLine}
${entry.description}
${entry.metadataText}`).map((finding) => finding.kind))];
    return kinds.length === 0 ? [] : [`${entry.origin.path}:${entry.origin.line}: "${redactSecrets(entry.name).text}" contains ${kinds.join(", ")}`];
  });
  checks.push({ name: "secrets", status: secrets.length === 0 ? "ok" : "problem", details: secrets });
  return checks;
}
function storeHealth(directory, unread) {
  let info;
  try {
    info = statSync7(directory);
  } catch {
    return { name: "global store", status: "ok", details: [`${directory}: not created yet (the first promotion creates it)`] };
  }
  if (!info.isDirectory()) return { name: "global store", status: "problem", details: [`${directory} is a file, not a directory; move it away`] };
  const details = [...unread];
  let status = unread.length === 0 ? "ok" : "warning";
  if ((info.mode & 63) !== 0) {
    status = "warning";
    details.push(`${directory} is mode ${(info.mode & 511).toString(8)}; others can read your memory (chmod 700)`);
  }
  let names = [];
  try {
    names = readdirSync5(directory);
  } catch (error) {
    return { name: "global store", status: "problem", details: [`${directory} cannot be read (${error.code ?? "error"})`] };
  }
  if (names.includes(COMMIT_JOURNAL)) {
    status = "warning";
    details.push(`${join25(directory, COMMIT_JOURNAL)}: a change to the store was interrupted (its writer stopped mid-commit); readers already see it as done, and the next change to the store completes it`);
  }
  for (const category of CATEGORIES6) {
    if (!names.includes(`${category}.md`)) continue;
    const file = statSafely(join25(directory, `${category}.md`));
    if (file?.isFile() !== true) continue;
    const mode = file.mode & 511;
    if ((mode & 63) !== 0) {
      status = "warning";
      details.push(`${join25(directory, `${category}.md`)} is mode ${mode.toString(8)}; others can read it (chmod 600)`);
    }
  }
  if (details.length === 0) details.push(`${directory}: readable, private`);
  return { name: "global store", status, details };
}
function statSafely(path) {
  try {
    return statSync7(path);
  } catch {
    return void 0;
  }
}
async function collectStats(options) {
  const bank = await readKnowledgeBank(options.projectRoot);
  const global = await readGlobalStore(options.globalStoreDir);
  const count = (entries) => Object.fromEntries(CATEGORIES6.map((category) => [category, entries.filter((entry) => entry.category === category).length]));
  const session = await prepareSessionInjection(options);
  const signals = await gatherSessionSignals({ projectRoot: options.projectRoot, ...options.env === void 0 ? {} : { env: options.env } });
  const feedback = readFeedback(options.globalStoreDir);
  const plan = planSessionStart(session, sessionQuery(signals), { feedback });
  const votes = [...feedback.values()];
  return {
    entries: { local: count(bank.entries), global: count(global.entries) },
    injection: {
      entries: plan.entries.length,
      chars: plan.block.length,
      estimatedTokens: Math.ceil(plan.block.length / 4),
      droppedForBudget: plan.droppedForBudget,
      enabled: session.config.injectionEnabled,
      ranking: plan.ranking,
      names: plan.entries.map((entry) => entry.name),
      indexed: plan.indexed?.length ?? 0
    },
    signals,
    feedback: { entries: votes.length, helpful: votes.reduce((sum, vote) => sum + vote.helpful, 0), unhelpful: votes.reduce((sum, vote) => sum + vote.unhelpful, 0) },
    lastInjection: readLastInjection(options.globalStoreDir),
    warnings: [...session.configWarnings, ...session.warnings].map(formatWarning)
  };
}

// src/export-rules.ts
import { planInjection as planInjection4 } from "@iflow-memory/ranker";
var GENERATED_MARKER = "<!-- Generated by iflow-memory export-rules";
async function exportRules(options) {
  const existing = await readTextFile(options.destination);
  if ("text" in existing && !existing.text.startsWith(GENERATED_MARKER) && options.force !== true) {
    throw new StoreError("STORE_WRITE_FAILED", `will not overwrite ${options.destination}: it was not written by iflow-memory export-rules; pass --force to replace it, or --dest another file`);
  }
  const { config } = await readConfig(options.projectRoot);
  const { entries } = await readGlobalStore(options.globalStoreDir);
  const universal = entries.filter((entry) => !entry.tags.some((tag) => tag.toLowerCase() === "project-specific"));
  const plan = planInjection4({ local: [], global: universal, project: projectName(options.projectRoot), limit: config.injectionLimit, maxChars: config.injectionMaxChars });
  const stamp = isoTimestamp(options.now ?? /* @__PURE__ */ new Date());
  const content = `${GENERATED_MARKER} on ${stamp} from ${options.globalStoreDir}; do not edit: changes are overwritten. -->

${plan.block}`;
  await writeFileAtomically(options.destination, content);
  return { entries: plan.entries.length, chars: content.length, path: options.destination };
}

// src/parse-settings-object.ts
function parseSettingsObject(path, file) {
  if (!("text" in file) || file.text.trim() === "") return {};
  let parsed;
  try {
    parsed = JSON.parse(file.text);
  } catch (error) {
    throw new StoreError("STORE_UNREADABLE", `will not change ${path}: it is not valid JSON (${error.message}); fix it by hand, then run setup again`, { cause: error });
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new StoreError("STORE_UNREADABLE", `will not change ${path}: it is JSON but not an object of settings; fix it by hand, then run setup again`);
  }
  return parsed;
}

// src/update-text-file.ts
import { chmodSync, copyFileSync, statSync as statSync8 } from "fs";

// src/settings-link-target.ts
import { readlinkSync, realpathSync } from "fs";
import { dirname as dirname6, resolve as resolve6 } from "path";
function settingsLinkTarget(path) {
  try {
    return realpathSync(path);
  } catch {
    let current = path;
    for (let hops = 0; hops < 40; hops++) {
      let link2;
      try {
        link2 = readlinkSync(current);
      } catch {
        return current;
      }
      current = resolve6(dirname6(current), link2);
    }
    throw new StoreError("STORE_WRITE_FAILED", `cannot change ${path}: it is a loop of symbolic links; point it at a file, then run setup again`);
  }
}

// src/update-text-file.ts
async function updateTextFile(path, change, options = {}) {
  for (let attempt = 1; ; attempt++) {
    const file = await readTextFile(path);
    if ("warning" in file) throw new StoreError("STORE_UNREADABLE", `cannot read ${path}: ${file.warning.message}`);
    const result = change("text" in file ? file.text : null);
    if (!result.changed || options.dryRun === true) return { ...result, backup: null };
    const now2 = await readTextFile(path);
    const same = "text" in file ? "text" in now2 && now2.text === file.text : "missing" in now2;
    if (!same && attempt < 5) continue;
    if (!same) throw new StoreError("STORE_WRITE_FAILED", `cannot change ${path}: another program keeps changing it; close it (Claude Code) and run setup again`);
    let backup = null;
    if ("text" in file) {
      backup = `${path}.iflow-memory.bak`;
      copyFileSync(path, backup);
    }
    const target = settingsLinkTarget(path);
    const mode = "text" in file ? statSync8(target).mode & 511 : null;
    await writeFileAtomically(target, result.text);
    if (mode !== null) chmodSync(target, mode);
    return { ...result, backup };
  }
}

// src/update-settings-file.ts
async function updateSettingsFile(path, change, options = {}) {
  const { text: _text, ...result } = await updateTextFile(
    path,
    (text) => {
      const changed = change(parseSettingsObject(path, text === null ? { missing: true } : { text }));
      return { ...changed, text: `${JSON.stringify(changed.settings, null, 2)}
` };
    },
    options
  );
  return result;
}

// src/revert-settings-file.ts
import { chmodSync as chmodSync2, renameSync as renameSync2, statSync as statSync9, unlinkSync as unlinkSync4 } from "fs";
async function revertSettingsFile(path, remove, options = {}) {
  const backup = `${path}.iflow-memory.bak`;
  for (let attempt = 1; ; attempt++) {
    const file = await readTextFile(path);
    if ("warning" in file) throw new StoreError("STORE_UNREADABLE", `cannot read ${path}: ${file.warning.message}`);
    const result = remove(parseSettingsObject(path, file));
    if (options.dryRun === true) return { ...result, outcome: result.changed ? "rewritten" : "unchanged", backupRemoved: null };
    if (!result.changed) return { ...result, outcome: "unchanged", backupRemoved: removeIfPresent(backup) };
    const before = await backupSettings(backup);
    const restore = before !== null && (sameJson2(before, result.settings) || sameJson2(before, result.keptEmpty));
    const deleteFile = before === null && Object.keys(result.settings).length === 0;
    const now2 = await readTextFile(path);
    const same = "text" in file && "text" in now2 && now2.text === file.text;
    if (!same && attempt < 5) continue;
    if (!same) throw new StoreError("STORE_WRITE_FAILED", `cannot change ${path}: another program keeps changing it; close it (Claude Code) and run the uninstall again`);
    const target = settingsLinkTarget(path);
    const mode = statSync9(target).mode & 511;
    if (restore) {
      renameSync2(backup, target);
      chmodSync2(target, mode);
      return { ...result, outcome: "restored", backupRemoved: backup };
    }
    if (deleteFile) unlinkSync4(target);
    else {
      await writeFileAtomically(target, `${JSON.stringify(result.settings, null, 2)}
`);
      chmodSync2(target, mode);
    }
    return { ...result, outcome: deleteFile ? "deleted" : "rewritten", backupRemoved: removeIfPresent(backup) };
  }
}
async function backupSettings(backup) {
  const file = await readTextFile(backup);
  if (!("text" in file)) return null;
  try {
    return parseSettingsObject(backup, file);
  } catch {
    return null;
  }
}
function removeIfPresent(path) {
  try {
    unlinkSync4(path);
    return path;
  } catch (error) {
    if (error.code === "ENOENT") return null;
    throw new StoreError("STORE_WRITE_FAILED", `cannot remove ${path}: ${error.message}; remove it by hand`, { cause: error });
  }
}
function sameJson2(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((item, index) => sameJson2(item, b[index]));
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  return keysA.length === keysB.length && keysA.every((key) => Object.hasOwn(b, key) && sameJson2(a[key], b[key]));
}

// src/remove-store-cache.ts
import { lstatSync as lstatSync2, readdirSync as readdirSync6, rmSync } from "fs";
import { join as join26 } from "path";
function removeStoreCache(globalStoreDir) {
  const path = storeCacheDir(globalStoreDir);
  let stats;
  try {
    stats = lstatSync2(path);
  } catch (error) {
    if (error.code === "ENOENT") return null;
    throw new StoreError("STORE_UNREADABLE", `cannot read ${path}: ${error.message}`, { cause: error });
  }
  if (!stats.isDirectory()) throw new StoreError("STORE_NOT_DIRECTORY", `will not remove ${path}: it is not a folder; remove it by hand if it is not yours`);
  let files = 0;
  let bytes = 0;
  for (const entry of readdirSync6(path, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    files += 1;
    bytes += lstatSync2(join26(entry.parentPath, entry.name)).size;
  }
  try {
    rmSync(path, { recursive: true, force: true });
  } catch (error) {
    throw new StoreError("STORE_WRITE_FAILED", `cannot remove ${path}: ${error.message}; remove it by hand (it holds derived data only)`, { cause: error });
  }
  return { path, files, bytes };
}

// src/relevance/session-ledger.ts
import { appendFileSync as appendFileSync2, closeSync as closeSync6, mkdirSync as mkdirSync3, openSync as openSync6, readdirSync as readdirSync7, readFileSync as readFileSync2, statSync as statSync10, unlinkSync as unlinkSync5, utimesSync as utimesSync2 } from "fs";
import { join as join27 } from "path";
var SESSION_LEDGER_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1e3;
var PRUNE_EVERY_MS2 = 24 * 60 * 60 * 1e3;
var PRUNED_MARKER = ".pruned";
var SAFE_ID = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;
function sessionLedgerPath(globalStoreDir, sessionId) {
  const name = SAFE_ID.test(sessionId) ? sessionId : `x-${Buffer.from(sessionId).toString("hex").slice(0, 120)}`;
  return join27(globalStoreDir, ".cache", "sessions", `${name}.txt`);
}
function readSessionLedger(globalStoreDir, sessionId) {
  try {
    const text = readFileSync2(sessionLedgerPath(globalStoreDir, sessionId), "utf8");
    return new Set(text.split("\n").filter((line) => /^[0-9a-f]{16}$/.test(line)));
  } catch {
    return /* @__PURE__ */ new Set();
  }
}
function recordInSessionLedger(globalStoreDir, sessionId, hashes, now2 = Date.now()) {
  if (hashes.length === 0) return;
  const path = sessionLedgerPath(globalStoreDir, sessionId);
  const folder = join27(globalStoreDir, ".cache", "sessions");
  const isNew = statSync10(path, { throwIfNoEntry: false }) === void 0;
  if (isNew) {
    mkdirSync3(folder, { recursive: true, mode: 448 });
    const marker = join27(folder, PRUNED_MARKER);
    const pruned = statSync10(marker, { throwIfNoEntry: false });
    if (pruned === void 0 || now2 - pruned.mtimeMs > PRUNE_EVERY_MS2) {
      closeSync6(openSync6(marker, "w", 384));
      utimesSync2(marker, now2 / 1e3, now2 / 1e3);
      pruneLedgers(folder, now2);
    }
  }
  appendFileSync2(path, `${hashes.join("\n")}
`, { mode: 384 });
}
function pruneLedgers(folder, now2) {
  for (const name of readdirSync7(folder)) {
    const path = join27(folder, name);
    try {
      const info = statSync10(path);
      if (info.isFile() && name !== PRUNED_MARKER && now2 - info.mtimeMs > SESSION_LEDGER_MAX_AGE_MS) unlinkSync5(path);
    } catch {
    }
  }
}

// src/relevance/search-memory.ts
import { buildRelevanceIndex as buildRelevanceIndex2, entryOrders as entryOrders2, injectionCandidates as injectionCandidates2, rankEntries, SEARCH_FLOOR } from "@iflow-memory/ranker";

// src/relevance/shared-ranking.ts
async function sharedRanking(options) {
  const { fingerprint } = options;
  const path = injectionCachePath(options.globalStoreDir, options.projectRoot);
  const cached = fingerprint.memory ? readCachedInjection(path, fingerprint.value) : null;
  if (cached !== null) {
    const ranking = searchesEverything(cached) ? readCachedRanking(path, fingerprint.value) : null;
    if (ranking !== null || !searchesEverything(cached)) return { ranking, warnings: cached.warnings, from: "cache", save: async () => void 0 };
  }
  const injection = await prepareSessionInjection(options);
  return {
    ranking: searchesEverything(injection) ? injection.ranking ?? null : null,
    warnings: injection.warnings,
    from: "files",
    save: async () => {
      if (fingerprint.memory && fingerprint.settled) await writeCachedInjection(path, fingerprint.value, injection).catch(() => void 0);
    }
  };
}
function searchesEverything(injection) {
  const { config } = injection;
  return config.injectionEnabled && config.globalEnabled && (config.injectionRanking !== "original" || config.promptRecall);
}

// src/relevance/search-memory.ts
async function searchMemory(options) {
  const scope = options.includeGlobal === false ? "project" : options.scope ?? "all";
  const searcher = createMemorySearcher(options);
  const answer = await searcher.search(options.query, { limit: options.limit, scope });
  await searcher.saved();
  return answer;
}
function createMemorySearcher(options) {
  let state = null;
  let saving = Promise.resolve();
  const current = () => {
    const fingerprint = injectionFingerprint({ projectRoot: options.projectRoot, globalStoreDir: options.globalStoreDir, salt: MEMORY_CACHE_SALT, now: (options.now ?? Date.now)() });
    if (state === null || state.key !== fingerprint.withoutFeedback) {
      state = { key: fingerprint.settled ? fingerprint.withoutFeedback : "", fingerprint, sources: null, scopes: /* @__PURE__ */ new Map() };
    }
    return state;
  };
  const sourcesOf = (now2) => now2.sources ??= readMemorySources({ projectRoot: options.projectRoot, globalStoreDir: options.globalStoreDir, includeGlobal: true });
  const fromSources = async (now2, scope) => {
    const sources = await sourcesOf(now2);
    const candidates = injectionCandidates2({
      local: scope === "global" ? [] : sources.local,
      global: scope === "project" ? [] : sources.global,
      project: projectName(options.projectRoot)
    });
    return { candidates, index: buildRelevanceIndex2(candidates), orders: entryOrders2(candidates), warnings: sources.warnings };
  };
  const shared = async (now2) => {
    const found = await sharedRanking({ projectRoot: options.projectRoot, globalStoreDir: options.globalStoreDir, fingerprint: now2.fingerprint });
    if (found.from === "files") {
      const written = new Promise((resolve7) => setImmediate(() => void found.save().then(resolve7)));
      saving = Promise.all([saving, written]).then(() => void 0);
    }
    if (found.ranking === null) return fromSources(now2, "all");
    const { candidates, index, orders } = found.ranking;
    return { candidates, index, orders, warnings: found.warnings };
  };
  return {
    async search(query, { limit, scope }) {
      const now2 = current();
      let scoped = now2.scopes.get(scope);
      if (scoped === void 0) {
        scoped = scope === "all" ? shared(now2) : fromSources(now2, scope);
        now2.scopes.set(scope, scoped);
        scoped.catch(() => now2.scopes.delete(scope));
      }
      const { candidates, index, orders, warnings } = await scoped;
      const results = rankEntries(candidates, { text: query }, { index, orders, feedback: readFeedback(options.globalStoreDir), floor: SEARCH_FLOOR, ...limit < 0 ? {} : { limit } });
      return { results, warnings };
    },
    async sources() {
      return sourcesOf(current());
    },
    saved: () => saving
  };
}

// src/relevance/claim-session-event.ts
import { closeSync as closeSync7, mkdirSync as mkdirSync4, openSync as openSync7, renameSync as renameSync3, statSync as statSync11, unlinkSync as unlinkSync6 } from "fs";
import { basename as basename3, dirname as dirname7, join as join28 } from "path";
var SESSION_CLAIM_WINDOW_MS = 6e4;
function claimSessionEvent(globalStoreDir, sessionId, event, now2 = Date.now) {
  const ledger = sessionLedgerPath(globalStoreDir, sessionId);
  const path = join28(dirname7(ledger), `${basename3(ledger, ".txt")}.${event.replace(/[^A-Za-z0-9_-]/g, "_")}.claim`);
  try {
    mkdirSync4(dirname7(path), { recursive: true, mode: 448 });
  } catch {
    return true;
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      closeSync7(openSync7(path, "wx", 384));
      return true;
    } catch (error) {
      if (error.code !== "EEXIST") return true;
    }
    const held2 = statSync11(path, { throwIfNoEntry: false });
    if (held2 === void 0) continue;
    if (now2() - held2.mtimeMs < SESSION_CLAIM_WINDOW_MS) return false;
    const aside = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    try {
      renameSync3(path, aside);
    } catch {
      continue;
    }
    const moved = statSync11(aside, { throwIfNoEntry: false });
    try {
      unlinkSync6(aside);
    } catch {
    }
    if (moved !== void 0 && now2() - moved.mtimeMs < SESSION_CLAIM_WINDOW_MS) return false;
  }
  return false;
}

// src/history/append-injection-history.ts
import { closeSync as closeSync8, fstatSync as fstatSync3, mkdirSync as mkdirSync5, openSync as openSync8, renameSync as renameSync4, statSync as statSync12, unlinkSync as unlinkSync7, writeSync as writeSync2 } from "fs";
import { dirname as dirname8, join as join29 } from "path";
var HISTORY_FILE = ".history.jsonl";
var HISTORY_ROTATED_FILE = ".history.1.jsonl";
var HISTORY_MAX_BYTES = 4 * 1024 * 1024;
var ROTATION_LOCK = ".history.rotate";
var ROTATION_LOCK_STALE_MS = 1e4;
function createHistoryRecord(options) {
  return {
    time: isoTimestamp(options.now),
    session: options.session,
    project: options.project,
    event: options.event,
    ranking: options.ranking,
    entries: options.plan.entries.map((entry) => ({
      hash: entry.contentHash,
      name: entry.name,
      ...entry.matchedTerms === void 0 ? {} : { matched: entry.matchedTerms }
    })),
    chars: options.plan.block.length,
    ...options.query === void 0 ? {} : { query: options.query },
    ...options.agent === void 0 ? {} : { agent: options.agent }
  };
}
function appendInjectionHistory(globalStoreDir, record, options = {}) {
  const maxBytes = options.maxBytes ?? HISTORY_MAX_BYTES;
  const path = join29(globalStoreDir, HISTORY_FILE);
  const line = Buffer.from(`${JSON.stringify(record)}
`, "utf8");
  for (let attempt = 0; attempt < 3; attempt++) {
    const descriptor = openAppending(path);
    let written;
    try {
      const count = writeSync2(descriptor, line);
      if (count !== line.length) {
        writeSync2(descriptor, "\n");
        throw new Error(`cannot append to ${path}: only ${count} of ${line.length} bytes written`);
      }
      written = fstatSync3(descriptor);
    } finally {
      closeSync8(descriptor);
    }
    if (written.nlink > 0) {
      if (written.size >= maxBytes) rotateHistory(path, written);
      return;
    }
  }
}
function openAppending(path) {
  try {
    return openSync8(path, "a", 384);
  } catch (error) {
    if (error.code !== "ENOENT") throw error;
    mkdirSync5(dirname8(path), { recursive: true, mode: 448 });
    return openSync8(path, "a", 384);
  }
}
function rotateHistory(path, written) {
  const directory = dirname8(path);
  const claim = join29(directory, ROTATION_LOCK);
  try {
    closeSync8(openSync8(claim, "wx", 384));
  } catch {
    const age = Date.now() - (statSync12(claim, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > ROTATION_LOCK_STALE_MS) unlinkSync7(claim);
    return;
  }
  try {
    const current = statSync12(path, { throwIfNoEntry: false });
    if (current !== void 0 && current.ino === written.ino && current.dev === written.dev) renameSync4(path, join29(directory, HISTORY_ROTATED_FILE));
  } finally {
    unlinkSync7(claim);
  }
}

// src/history/read-injection-history.ts
import { join as join30 } from "path";
async function readInjectionHistory(globalStoreDir, filter = {}) {
  const records = [];
  const warnings = [];
  const hash = filter.entry?.trim().toLowerCase().replace(/^sha256:/, "");
  for (const name of [HISTORY_ROTATED_FILE, HISTORY_FILE]) {
    const path = join30(globalStoreDir, name);
    const file = await readTextFile(path);
    if ("warning" in file) warnings.push(formatWarning(file.warning));
    if (!("text" in file)) continue;
    let skipped = 0;
    for (const line of file.text.split("\n")) {
      if (line.trim() === "") continue;
      const record = parseRecord2(line);
      if (record === null) {
        skipped++;
        continue;
      }
      if (filter.session !== void 0 && record.session !== filter.session) continue;
      if (hash !== void 0 && !record.entries.some((entry) => entry.hash.startsWith(hash))) continue;
      records.push(record);
    }
    if (skipped > 0) warnings.push(`${path}: ${skipped} line${skipped === 1 ? " is" : "s are"} not an injection record; skipped`);
  }
  const order = records.map((record, index) => ({ record, index }));
  order.sort((a, b) => a.record.time < b.record.time ? 1 : a.record.time > b.record.time ? -1 : b.index - a.index);
  return { records: order.map(({ record }) => record), warnings };
}
function parseRecord2(line) {
  let value;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (value === null || typeof value !== "object") return null;
  const record = value;
  const valid2 = typeof record.time === "string" && (record.session === null || typeof record.session === "string") && typeof record.project === "string" && typeof record.event === "string" && typeof record.chars === "number" && Array.isArray(record.entries) && record.entries.every((entry) => entry !== null && typeof entry === "object" && typeof entry.hash === "string" && typeof entry.name === "string");
  if (!valid2) return null;
  return { ...record, ranking: record.ranking === "relevance" ? "relevance" : "original" };
}

// src/feedback.ts
import { appendFileSync as appendFileSync3, mkdirSync as mkdirSync6 } from "fs";
import { join as join31 } from "path";
import { redactSecrets as redactSecrets2 } from "@iflow-memory/parser";
async function recordFeedback(options) {
  const { entries } = await listEntries({ projectRoot: options.projectRoot ?? options.globalStoreDir, globalStoreDir: options.globalStoreDir, scope: options.projectRoot === void 0 ? "global" : "all" });
  const entry = findOneEntry(entries, options.hash, { action: `cannot record feedback on "${options.hash}"`, notFound: "no entry has that hash; search or list to find an entry's hash" });
  const note = options.note === void 0 ? "" : redactSecrets2(options.note.replace(/\s+/g, " ").trim()).text.slice(0, MAX_FEEDBACK_NOTE);
  const record = {
    ts: isoTimestamp(options.now ?? /* @__PURE__ */ new Date()),
    hash: entry.contentHash,
    helpful: options.helpful,
    ...note === "" ? {} : { note },
    ...options.projectRoot === void 0 ? {} : { project: projectName(options.projectRoot) },
    ...options.sessionId === void 0 || options.sessionId === "" ? {} : { session: options.sessionId.slice(0, 200) }
  };
  const path = join31(options.globalStoreDir, FEEDBACK_FILE);
  try {
    mkdirSync6(options.globalStoreDir, { recursive: true, mode: 448 });
    appendFileSync3(path, `${JSON.stringify(record)}
`, { mode: 384 });
  } catch (error) {
    throw new StoreError("STORE_WRITE_FAILED", `cannot record feedback in ${path}: ${error.message}; check that the global store is writable`, { cause: error });
  }
  return { entry, record };
}

// src/store-memory.ts
import { statSync as statSync13 } from "fs";
import { join as join32 } from "path";
import { CATEGORIES as CATEGORIES7, hashContent as hashContent2, parseKnowledgeBank as parseKnowledgeBank4, redactSecrets as redactSecrets3 } from "@iflow-memory/parser";
var MAX_MEMORY_NAME = 200;
var MAX_MEMORY_DESCRIPTION = 4e3;
var HEADER_PREFIX = { "anti-patterns": "Anti-Pattern: ", heuristics: "", patterns: "Pattern: " };
var BANK_FILE_HEAD = {
  "anti-patterns": "# Anti-Patterns\n\nThings to avoid. Updated through retrospectives.\n\n---\n\n## Known Anti-Patterns\n",
  heuristics: "# Heuristics\n\nDecision guides for common situations. Updated through retrospectives.\n\n---\n\n## Decision Heuristics\n",
  patterns: "# Patterns\n\nApproaches that have worked well. Updated through retrospectives.\n\n---\n\n## Development Patterns\n"
};
async function storeMemory(options) {
  const memory = cleanMemory(options);
  const now2 = isoTimestamp(options.now ?? /* @__PURE__ */ new Date());
  if (options.scope === "global") return storeGlobally(options, memory);
  const directory = knowledgeBankDir(options.projectRoot);
  return withStoreLock(directory, async () => {
    const texts = {};
    for (const category of CATEGORIES7) texts[category] = await readBankFile(join32(directory, `${category}.md`));
    for (const category of CATEGORIES7) {
      const text = texts[category];
      if (text === null) continue;
      const existing = parseKnowledgeBank4(text, { category, scope: "local", path: `${category}.md` }).entries.find((entry) => entry.contentHash === memory.hash);
      if (existing === void 0) continue;
      const observationCount = existing.observationCount + 1;
      let next2 = recordMetadata(text, existing.origin.line, "Last observed", now2);
      next2 = recordMetadata(next2, existing.origin.line, "Observation count", String(observationCount));
      const file2 = join32(directory, `${category}.md`);
      await writeBankFile(file2, next2);
      return { hash: memory.hash, action: "counted", file: file2, scope: "project", name: existing.name, category, observationCount, redacted: memory.redacted };
    }
    const file = join32(directory, `${memory.category}.md`);
    const before = texts[memory.category] ?? BANK_FILE_HEAD[memory.category];
    const next = `${before.endsWith("\n") ? before : `${before}
`}
${formatBankEntry(memory, now2)}`;
    const parsed = parseKnowledgeBank4(next, { category: memory.category, scope: "local", path: file }).entries;
    const previous = texts[memory.category] === null ? 0 : parseKnowledgeBank4(texts[memory.category], { category: memory.category, scope: "local", path: file }).entries.length;
    const added = parsed.at(-1);
    if (parsed.length !== previous + 1 || added?.contentHash !== memory.hash || added.name !== memory.name) {
      throw new StoreError("STORE_WRITE_FAILED", `cannot add "${memory.name}" to ${file}: the file ends inside a comment or a code block, so the entry would not read back; close it in the file, then store again`);
    }
    await writeBankFile(file, next);
    return { hash: memory.hash, action: "added", file, scope: "project", name: memory.name, category: memory.category, observationCount: 1, redacted: memory.redacted };
  });
}
function cleanMemory(memory) {
  if (!CATEGORIES7.includes(memory.category)) {
    throw new StoreError("INVALID_MEMORY", `cannot store a memory of category "${String(memory.category)}": use anti-patterns, heuristics or patterns`);
  }
  const redacted = [];
  const redact = (text) => {
    const result = redactSecrets3(text);
    redacted.push(...result.findings.map((finding) => finding.kind));
    return result.text;
  };
  const name = redact(oneLine(memory.name)).replace(/^#+\s*/, "").replace(/^(?:anti-pattern|pattern|heuristic):\s*/i, "");
  if (name === "") throw new StoreError("INVALID_MEMORY", "cannot store a memory without a name: give it a short title");
  if (name.length > MAX_MEMORY_NAME) throw new StoreError("INVALID_MEMORY", `cannot store a memory whose name is ${name.length} characters long: keep it under ${MAX_MEMORY_NAME}`);
  const description = redact(memory.description).replace(/\r\n?/g, "\n").split("\n").map((line) => line.trimEnd().replace(/^(\s*)#/, "$1\\#").replace(/^- /, "* ").replace(/```/g, "'''").replace(/<!--/g, "&lt;!--")).join("\n").replace(/\n{3,}/g, "\n\n").trim();
  if (description === "") throw new StoreError("INVALID_MEMORY", `cannot store "${name}" without a description: say what was learned`);
  if (description.length > MAX_MEMORY_DESCRIPTION) {
    throw new StoreError("INVALID_MEMORY", `cannot store "${name}": its description is ${description.length} characters long; keep a learning under ${MAX_MEMORY_DESCRIPTION}`);
  }
  const instead = memory.instead === void 0 ? "" : redact(oneLine(memory.instead)).replace(/<!--/g, "&lt;!--");
  if (memory.confidence !== void 0 && !["high", "medium", "low"].includes(memory.confidence)) {
    throw new StoreError("INVALID_MEMORY", `cannot store "${name}" with confidence "${String(memory.confidence)}": use high, medium or low`);
  }
  return {
    category: memory.category,
    name,
    description,
    instead: instead === "" ? null : instead,
    confidence: memory.confidence ?? null,
    hash: hashContent2(description),
    redacted: [...new Set(redacted)]
  };
}
function oneLine(text) {
  return text.replace(/\s+/g, " ").trim();
}
function formatBankEntry(memory, now2) {
  return [
    `### ${HEADER_PREFIX[memory.category]}${memory.name}`,
    memory.description,
    ...memory.instead === null ? [] : [`- Instead: ${memory.instead}`],
    ...memory.confidence === null ? [] : [`- Confidence: ${memory.confidence}`],
    `- Last observed: ${now2}`,
    "- Observation count: 1",
    ""
  ].join("\n");
}
async function readBankFile(path) {
  const file = await readTextFile(path, { lossless: true });
  if ("missing" in file) return null;
  if ("warning" in file) {
    throw new StoreError("STORE_UNREADABLE", `cannot store into ${path}: ${file.warning.message.replace(/; skipped$/, "")}; fix or move the file, then store again`);
  }
  return file.text;
}
async function writeBankFile(path, content) {
  const mode = statSync13(path, { throwIfNoEntry: false })?.mode;
  await writeFileAtomically(path, content, { mode: mode === void 0 ? 420 : mode & 4095 });
}
async function storeGlobally(options, memory) {
  const entry = {
    name: memory.name,
    headerLine: `### ${HEADER_PREFIX[memory.category]}${memory.name}`,
    category: memory.category,
    description: memory.description,
    metadataText: memory.instead === null ? "" : `- Instead: ${memory.instead}`,
    metadata: memory.instead === null ? {} : { Instead: memory.instead },
    observationCount: 1,
    confidence: memory.confidence ?? "medium",
    lastObserved: null,
    tags: [],
    filePosition: 0,
    contentHash: memory.hash,
    scope: "local",
    origin: { path: "store_memory", line: 0 }
  };
  const result = await promoteEntries({
    projectRoot: options.projectRoot,
    globalStoreDir: options.globalStoreDir,
    selection: { kind: "entries", entries: [entry] },
    universal: [memory.name],
    ...options.now === void 0 ? {} : { now: options.now }
  });
  const promoted = result.entries[0];
  if (promoted === void 0 || promoted.kind !== "universal" || promoted.action === "kept-local") {
    throw new StoreError("STORE_WRITE_FAILED", `cannot store "${memory.name}" in the global store: promotion kept it local; store it with scope project`);
  }
  return {
    hash: memory.hash,
    action: promoted.action === "added" ? "added" : promoted.action === "counted" ? "counted" : "already-counted",
    file: join32(options.globalStoreDir, `${memory.category}.md`),
    scope: "global",
    name: memory.name,
    category: memory.category,
    observationCount: promoted.observationCount ?? 1,
    redacted: memory.redacted
  };
}
export {
  ARCHIVE_FILE,
  CACHE_MAX_AGE_MS,
  COMMIT_JOURNAL,
  CONFIG_KEYS,
  DEFAULT_CONFIG,
  DEFAULT_LESSONS_DIR,
  DEFAULT_SIGNALS_TIMEOUT_MS,
  FEEDBACK_FILE,
  GENERATED_MARKER,
  HISTORY_FILE,
  HISTORY_MAX_BYTES,
  HISTORY_ROTATED_FILE,
  LESSONS_STATE_FILE,
  LOCK_FILE,
  MAX_CHANGED_FILES,
  MAX_FEEDBACK_NOTE,
  MAX_FILE_BYTES,
  MAX_INJECTION_CHARS,
  MAX_MEMORY_DESCRIPTION,
  MAX_MEMORY_NAME,
  MEMORY_CACHE_FORMAT,
  MEMORY_CACHE_SALT,
  PROMOTIONS_FILE,
  PROMPT_RECALL_MAX_CHARS,
  REFRESH_CLAIM_MS,
  SESSION_CLAIM_WINDOW_MS,
  SESSION_EVENTS,
  SESSION_INDEX_MAX_LINES,
  SESSION_INDEX_SHARE,
  SESSION_LEDGER_MAX_AGE_MS,
  SESSION_MATCHES_IN_FULL,
  SETTLE_MS,
  StoreError,
  addLesson,
  appendGlobalEntry,
  appendInjectionHistory,
  auditCheck,
  claimCacheRefresh,
  claimSessionEvent,
  closestConfigKey,
  collectStats,
  commitFiles,
  configPath,
  contestGlobalEntries,
  createHistoryRecord,
  createMemorySearcher,
  createTrackingRecord,
  decayLessonsInDirectory,
  decodeRankingCache,
  diagnoseMemory,
  encodeRankingCache,
  entryFileCache,
  exportRules,
  extractLessonsFromEvents,
  findEntries,
  findOneEntry,
  findProjectRoot,
  forgetCachedInjection,
  forgetGlobalEntry,
  forgetLesson,
  formatGlobalEntry,
  formatWarning,
  gatherProjectFacts,
  gatherSessionSignals,
  globalStoreHeader,
  injectLessons,
  injectMemory,
  injectionCachePath,
  injectionFingerprint,
  isMemoryConfig,
  isoTimestamp,
  knowledgeBankDir,
  listEntries,
  planCachePath,
  planPromptRecall,
  planSessionStart,
  prepareSessionInjection,
  projectName,
  promoteEntries,
  pruneStoreCache,
  rankingCachePath,
  readCachedInjection,
  readCachedInjectionOrEarlier,
  readCachedPlan,
  readCachedRanking,
  readConfig,
  readEffectiveness,
  readFeedback,
  readGlobalStore,
  readInjectionHistory,
  readKnowledgeBank,
  readLastInjection,
  readLessons,
  readMemorySources,
  readSessionLedger,
  readTextFile,
  readTextFileSync,
  readUserFile,
  readUserFileSync,
  recordFeedback,
  recordInSessionLedger,
  recordMetadata,
  recordObservation,
  recoverCommit,
  releaseCacheRefresh,
  removeStoreCache,
  resolveGlobalStoreDir,
  revertSettingsFile,
  searchMemory,
  sessionIndex,
  sessionLedgerPath,
  sessionQuery,
  sharedRanking,
  shortHash,
  sourceItems,
  startSessionSignals,
  storeCacheDir,
  storeMemory,
  tagGlobalEntry,
  trackInjection,
  trackedPlan,
  trackingPath,
  updateLessons,
  updateSettingsFile,
  updateTextFile,
  withStoreLock,
  writeCachedInjection,
  writeCachedPlan,
  writeFileAtomically,
  writeTracking
};
//# sourceMappingURL=index.js.map