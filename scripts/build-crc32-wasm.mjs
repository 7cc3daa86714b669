// Assembles packages/store/src/crc32.wat (with wabt's assembler) and writes its bytes, as base64,
// into packages/store/src/crc32-wasm.ts: run it after changing the module's text. The store's
// tests assemble the text again and fail when the two differ.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import wabt from "wabt";

const source = fileURLToPath(new URL("../packages/store/src/crc32.wat", import.meta.url));
const target = fileURLToPath(new URL("../packages/store/src/crc32-wasm.ts", import.meta.url));

/** The module's bytes as wabt assembles `text`. */
async function assembleCrc32(text) {
  const module = (await wabt()).parseWat("crc32.wat", text);
  try {
    return Buffer.from(module.toBinary({}).buffer);
  } finally {
    module.destroy();
  }
}

const bytes = await assembleCrc32(readFileSync(source, "utf8"));
writeFileSync(target, `// Written by scripts/build-crc32-wasm.mjs from crc32.wat (${bytes.length} bytes): do not edit.\nexport const CRC32_WASM = "${bytes.toString("base64")}";\n`);
console.log(`wrote ${target} (${bytes.length} bytes)`);
