// Loaded with `node -r` by the benches: writes the process's peak resident set (kB, with its
// worker threads) to $IFLOW_BENCH_RSS_FILE when it exits. Never used in a timed run.
const { writeFileSync } = require("node:fs");
process.on("exit", () => writeFileSync(process.env.IFLOW_BENCH_RSS_FILE, String(process.resourceUsage().maxRSS)));
