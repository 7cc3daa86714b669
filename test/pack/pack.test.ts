import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir, REPO_ROOT } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";

const LIBRARIES = ["parser", "ranker", "store", "hook-adapter", "viewer", "cli"];
const PNPM = ["-y", "pnpm@10.34.8"];

describe("the published packages", () => {
  it("install from their `pnpm pack` tarballs into a scratch project and import by name, with types", () => {
    const tarballs = makeTempDir("iflow-memory-tarballs-");
    for (const library of LIBRARIES) {
      execFileSync("npx", [...PNPM, "pack", "--pack-destination", tarballs], { cwd: join(REPO_ROOT, "packages", library), stdio: "pipe" });
    }
    const files = readdirSync(tarballs).filter((file) => file.endsWith(".tgz"));
    expect(files.length).toBe(LIBRARIES.length);

    const scratch = makeTempDir("iflow-memory-scratch-");
    writeFileSync(join(scratch, "package.json"), JSON.stringify({ name: "scratch", private: true, type: "module" }));
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...files.map((file) => join(tarballs, file))], { cwd: scratch, stdio: "pipe" });

    const script = `
      import { hashContent, parseKnowledgeBank } from "@iflow-memory/parser";
      import { planInjection } from "@iflow-memory/ranker";
      import { resolveGlobalStoreDir, withStoreLock } from "@iflow-memory/store";
      import { runSessionStartHook } from "@iflow-memory/hook-adapter";
      import { run } from "@iflow-memory/cli";
      import { startViewer } from "@iflow-memory/viewer";
      const { entries } = parseKnowledgeBank("### Pattern: A\\nKeep it small.\\n", { category: "patterns", scope: "local", path: "p.md" });
      const plan = planInjection({ local: entries, global: [], project: "scratch", limit: 20, maxChars: 9000 });
      console.log(JSON.stringify([hashContent("a b"), plan.sources, resolveGlobalStoreDir({ env: { HOME: "/home/ada" } }), typeof withStoreLock, typeof runSessionStartHook, typeof run, typeof startViewer]));
    `;
    writeFileSync(join(scratch, "check.mjs"), script);
    const output = execFileSync(process.execPath, ["check.mjs"], { cwd: scratch, encoding: "utf8" });
    expect(JSON.parse(output)).toEqual(["c8687a08aa5d6ed2", { local: 1, global: 0 }, "/home/ada/.claude/iflow/memory", "function", "function", "function", "function"]);

    // Types: a TypeScript user imports the same names and gets them typed.
    writeFileSync(join(scratch, "check.ts"), `
      import { parseKnowledgeBank, type Entry } from "@iflow-memory/parser";
      import { planInjection, type InjectionPlan } from "@iflow-memory/ranker";
      import { injectMemory } from "@iflow-memory/store";
      import type { HookIO } from "@iflow-memory/hook-adapter";
      const entries: Entry[] = parseKnowledgeBank("", { category: "patterns", scope: "local", path: "p" }).entries;
      const plan: InjectionPlan = planInjection({ local: entries, global: [], project: "p", limit: 1, maxChars: null });
      export const results = [plan, injectMemory, null as unknown as HookIO];
    `);
    writeFileSync(join(scratch, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", noEmit: true, skipLibCheck: false, types: [] } }));
    execFileSync(process.execPath, [join(REPO_ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], { cwd: scratch, stdio: "pipe" });

    // The command and the standalone hook come with the cli and hook-adapter packages.
    expect(existsSync(join(scratch, "node_modules/.bin/iflow-memory"))).toBe(true);
    const version = execFileSync(join(scratch, "node_modules/.bin/iflow-memory"), ["--version"], { encoding: "utf8" });
    expect(version).toBe("0.1.0\n");
    const hook = execFileSync(process.execPath, [join(scratch, "node_modules/@iflow-memory/hook-adapter/dist/session-start.cjs")], { input: "", cwd: scratch, env: { PATH: process.env.PATH ?? "", HOME: scratch }, encoding: "utf8" });
    expect(hook).toBe("");
  }, 240_000);
});
