import { readFileSync } from "node:fs";
import * as zlib from "node:zlib";
import fc from "fast-check";
import wabt from "wabt";
import { describe, expect, it, vi } from "vitest";
import { CRC32_WASM } from "./crc32-wasm.js";

// zlib's own, where this node has it (20.15 on): what the caches were checked with before.
const zlibCrc32 = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

// A fresh copy of the module for each test: which sum it uses depends on what it was given before.
async function freshCrc32(): Promise<typeof import("./crc32.js").crc32> {
  vi.resetModules();
  return (await import("./crc32.js")).crc32;
}

// Bytes that are not all alike (a CRC of zeros says little).
function bytesOf(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = seed >>> 0 || 1;
  for (let index = 0; index < length; index++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[index] = state & 0xff;
  }
  return bytes;
}

describe("crc32", () => {
  it("is the CRC-32 of zlib and gzip (the standard check value, the empty string, going on from a value)", async () => {
    const crc32 = await freshCrc32();
    expect(crc32(Buffer.from("123456789"))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
    expect(crc32(new Uint8Array(0), 0xdeadbeef)).toBe(0xdeadbeef);
    expect(crc32(Buffer.from("The quick brown fox jumps over the lazy dog"))).toBe(0x414fa339);
    expect(crc32(Buffer.from("56789"), crc32(Buffer.from("1234")))).toBe(0xcbf43926);
    expect(crc32([Buffer.from("12"), Buffer.from(""), Buffer.from("3456789")])).toBe(0xcbf43926);
  });

  it("gives zlib's sum for any bytes, at any length (across the 64 KB windows), cut anywhere", async () => {
    const crc32 = await freshCrc32();
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200_000 }), fc.integer(), fc.array(fc.nat(), { maxLength: 4 }), (length, seed, cuts) => {
        const bytes = bytesOf(length, seed);
        const at = [...new Set(cuts.map((cut) => cut % (length + 1)))].sort((a, b) => a - b);
        const pieces = [0, ...at].map((start, index) => bytes.subarray(start, at[index] ?? length));
        const whole = crc32(bytes);
        expect(crc32(pieces)).toBe(whole);
        expect(pieces.reduce((sum, piece) => crc32(piece, sum), 0)).toBe(whole);
        if (zlibCrc32 !== undefined) expect(whole).toBe(zlibCrc32(bytes) >>> 0);
      }),
      { numRuns: 60 },
    );
  });

  it("gives the same sum past 1 MB (zlib's, where this node has it) as the module's below, and goes on from either", async () => {
    const crc32 = await freshCrc32();
    const bytes = bytesOf(3 * 1024 * 1024 + 17, 7);
    const small = bytes.subarray(0, 100_000);
    // Below 1 MB first: the module's; then past it; then below it again (zlib's once loaded).
    const first = crc32(small);
    const whole = crc32(bytes);
    expect(crc32(bytes.subarray(100_000), first)).toBe(whole);
    expect(crc32(small)).toBe(first);
    // Many small pieces that make more than 1 MB in one call are summed as one large call.
    const pieces = Array.from({ length: 64 }, (_, index) => bytes.subarray(index * 49_152, (index + 1) * 49_152));
    expect(crc32(pieces)).toBe(crc32(bytes.subarray(0, 64 * 49_152)));
    if (zlibCrc32 !== undefined) {
      expect(whole).toBe(zlibCrc32(bytes) >>> 0);
      expect(first).toBe(zlibCrc32(small) >>> 0);
    }
  });

  it("gives the same sums where this node runs no WebAssembly (--jitless), with zlib's or without it (before Node 20.15)", async () => {
    const bytes = bytesOf(150_000, 11);
    const expected = [(await freshCrc32())(bytes), (await freshCrc32())(Buffer.from("123456789"))];
    expect(expected[1]).toBe(0xcbf43926);
    vi.stubGlobal("WebAssembly", undefined);
    try {
      const withZlib = await freshCrc32();
      expect([withZlib(bytes), withZlib(Buffer.from("123456789"))]).toEqual(expected);
      vi.doMock("node:zlib", () => ({ crc32: undefined }));
      const withNeither = await freshCrc32();
      expect([withNeither(bytes), withNeither(Buffer.from("123456789"))]).toEqual(expected);
      expect(withNeither(bytes.subarray(70_000), withNeither(bytes.subarray(0, 70_000)))).toBe(expected[0]);
    } finally {
      vi.doUnmock("node:zlib");
      vi.unstubAllGlobals();
    }
  });

  it("is summed by the module assembled from crc32.wat (its bytes in crc32-wasm.ts are the text's)", async () => {
    const module = (await wabt()).parseWat("crc32.wat", readFileSync(new URL("./crc32.wat", import.meta.url), "utf8"));
    try {
      expect(Buffer.from(module.toBinary({}).buffer).toString("base64")).toBe(CRC32_WASM);
    } finally {
      module.destroy();
    }
  });
});
