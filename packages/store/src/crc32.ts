import * as zlib from "node:zlib";
import { CRC32_WASM } from "./crc32-wasm.js";

/**
 * The CRC-32 of `data` (zlib's: IEEE 802.3, as `zlib.crc32` and gzip give it) — of its pieces one
 * after the other, when it is a list — going on from `value`, the checksum of the bytes before
 * it (`crc32(rest, crc32(first))` is that of both).
 *
 * What the caches check at a start after an edit is a few hundred kilobytes, for which loading
 * `node:zlib` (its streams: 2 to 3 ms of a new process) costs far more than the checksum: those
 * are summed by a WebAssembly module of a few hundred bytes (`crc32.wat`, instantiated in some
 * 0.4 ms), in windows of 64 KB, so that V8 moves it to its optimising tier after the first few.
 * Past 1 MB in one call (a global store's promotion index), or once zlib is loaded, zlib's, which
 * is faster per byte; where this node has no `zlib.crc32` (before 20.15), the module's at any size,
 * and where it runs no WebAssembly (`--jitless`), zlib's or else a loop of JavaScript.
 *
 * @example
 * crc32(Buffer.from("123456789")) === 0xcbf43926; // true
 * crc32(appended, crc32(bytes)) === crc32([bytes, appended]); // true
 */
export function crc32(data: Uint8Array | readonly Uint8Array[], value = 0): number {
  const pieces = data instanceof Uint8Array ? [data] : data;
  const large = pieces.reduce((sum, piece) => sum + piece.length, 0) > NATIVE_FROM_BYTES;
  const native = nativeCrc32 ?? (large || moduleSum() === null ? loadNative() : null);
  const sum = native ?? moduleSum() ?? tableSum;
  let checksum = value >>> 0;
  for (const piece of pieces) checksum = sum(piece, checksum) >>> 0;
  return checksum;
}

type Crc32 = (data: Uint8Array, value: number) => number;

// Past this many bytes in one call, zlib's load pays for itself.
const NATIVE_FROM_BYTES = 1 << 20;
let nativeCrc32: Crc32 | null = null;
function loadNative(): Crc32 | null {
  const found = (zlib as { crc32?: Crc32 }).crc32;
  nativeCrc32 = typeof found === "function" ? found : null;
  return nativeCrc32;
}

// The module's memory (two pages): its tables (8 KB, `init` fills them), then the window the bytes are copied into.
const TABLES_BYTES = 8192;
const WINDOW_BYTES = 65536;
let moduleCrc32: Crc32 | null | undefined;

// The module's sum, made at its first use; null where this node runs no WebAssembly (`--jitless`, or a policy that forbids it).
function moduleSum(): Crc32 | null {
  if (moduleCrc32 !== undefined) return moduleCrc32;
  const api = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
  if (api === undefined) return (moduleCrc32 = null);
  let exports: WasmExports;
  try {
    exports = new api.Instance(new api.Module(Buffer.from(CRC32_WASM, "base64"))).exports as WasmExports;
    exports.init();
  } catch {
    // None may be compiled here.
    return (moduleCrc32 = null);
  }
  const window = new Uint8Array(exports.memory.buffer, TABLES_BYTES, WINDOW_BYTES);
  moduleCrc32 = (data, value) => {
    let checksum = value;
    for (let at = 0; at < data.length; at += WINDOW_BYTES) {
      const piece = data.subarray(at, Math.min(data.length, at + WINDOW_BYTES));
      window.set(piece);
      checksum = exports.crc(checksum, TABLES_BYTES, piece.length);
    }
    return checksum;
  };
  return moduleCrc32;
}

// As much of the WebAssembly global as this file uses (the store's types, without the DOM's, do not declare it).
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
}
interface WasmExports {
  memory: { buffer: ArrayBuffer };
  init(): void;
  crc(value: number, at: number, length: number): number;
}

// A byte a step, where neither WebAssembly nor zlib's is there: slow, but the same sum.
let table: Uint32Array | null = null;
function tableSum(data: Uint8Array, value: number): number {
  if (table === null) {
    table = new Uint32Array(256);
    for (let byte = 0; byte < 256; byte++) {
      let crc = byte;
      for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
      table[byte] = crc >>> 0;
    }
  }
  let crc = ~value;
  for (let index = 0; index < data.length; index++) crc = table[(crc ^ data[index]!) & 0xff]! ^ (crc >>> 8);
  return ~crc >>> 0;
}
