// What every hook must do before anything of its own: read Claude Code's stdin JSON from the
// socket it is given, as the hooks do (descriptor-io.ts: a net.Socket on fd 0, which makes it
// non-blocking, then what is there read at once; the socket's events only for a writer not done).
// A floor for `pnpm bench` (bench/hook-bench.mjs), not part of the product; it restates the hooks'
// way instead of loading their bundle (what it measures without): change it with descriptor-io.ts.
const { readSync } = require("node:fs");
const { Socket } = require("node:net");

module.exports = function readStdin(done) {
  const socket = new Socket({ fd: 0, readable: true, writable: false });
  const buffer = Buffer.allocUnsafe(64 * 1024);
  const chunks = [];
  for (;;) {
    let count;
    try {
      count = readSync(0, buffer, 0, buffer.length, null);
    } catch (error) {
      if (error.code !== "EAGAIN") throw error;
      socket.on("data", (chunk) => chunks.push(chunk));
      socket.on("end", () => done(JSON.parse(Buffer.concat(chunks).toString("utf8"))));
      return;
    }
    if (count === 0) break;
    chunks.push(Buffer.from(buffer.subarray(0, count)));
  }
  socket.destroy();
  done(JSON.parse(Buffer.concat(chunks).toString("utf8")));
};
