// Floor: a prompt hook that reads its stdin JSON and the cached index it would rank with — the
// first line of the ranking cache named by argv[2] (the index's terms, and what a ranking reads
// of every entry), parsed — and does nothing else: no postings read, no ranking, no ledger, no
// output.
const { closeSync, openSync, readSync } = require("node:fs");

require("./read-stdin.cjs")(() => {
  const descriptor = openSync(process.argv[2], "r");
  let buffer = Buffer.allocUnsafe(256 * 1024);
  let length = 0;
  let newline = -1;
  while (newline < 0) {
    if (length === buffer.length) buffer = Buffer.concat([buffer, Buffer.allocUnsafe(buffer.length * 3)]);
    const count = readSync(descriptor, buffer, length, buffer.length - length, length);
    if (count === 0) throw new Error(`${process.argv[2]} has no first line`);
    newline = buffer.subarray(0, length + count).indexOf(10, length);
    length += count;
  }
  closeSync(descriptor);
  const header = JSON.parse(buffer.toString("utf8", 0, newline));
  if (!Array.isArray(header.terms)) throw new Error(`${process.argv[2]} holds no index`);
});
