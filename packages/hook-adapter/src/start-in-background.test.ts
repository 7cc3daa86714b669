import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { startInBackground } from "./start-in-background.js";

describe("startInBackground", () => {
  it("starts node on the script, a moment later, in the folder asked for, its paths never read by the shell", async () => {
    const base = makeTempDir();
    // A folder whose name a shell would run, were it ever in a script.
    const folder = join(base, "$(touch pwned)");
    const script = join(base, "write.cjs");
    writeFileSync(script, 'require("fs").writeFileSync(process.argv[2], process.cwd() + "\\n" + process.argv[3]);\n');
    mkdirSync(folder);
    const out = join(folder, "out.txt");
    const pid = startInBackground([script, out, "`echo no`"], { cwd: folder });
    expect(typeof pid).toBe("number");
    for (let waited = 0; !existsSync(out) && waited < 30_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(readFileSync(out, "utf8")).toBe(`${folder}\n\`echo no\``);
    expect(existsSync(join(base, "pwned"))).toBe(false);
    expect(existsSync("pwned")).toBe(false);
  }, 40_000);

  it("throws where node cannot start it at all, for the caller to say so (the hooks' refresh then releases its claim)", () => {
    expect(() => startInBackground(["script.cjs", "a\0b"])).toThrow();
  });
});
