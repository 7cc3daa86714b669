import * as zlib from "node:zlib";

/**
 * zlib's CRC-32 (Node ≥ 20.15), which can go on from the checksum of the bytes before
 * (`crc32(rest, crc32(first))` is that of both); null where this node lacks it. Looked up at each
 * call, so that a bundle that loads `zlib` at its first use (the hooks', the command's) loads it
 * only where a checksum is wanted.
 *
 * @example
 * const crc32 = zlibCrc32();
 * if (crc32 !== null) crc32(appended, crc32(bytes)) === crc32(Buffer.concat([bytes, appended])); // true
 */
export function zlibCrc32(): ((data: Uint8Array, value?: number) => number) | null {
  const crc32 = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;
  return typeof crc32 === "function" ? crc32 : null;
}
