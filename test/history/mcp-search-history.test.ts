import { readInjectionHistory } from "@iflow-memory/store";
import { copyCorpus, makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { connectInMemory } from "../mcp/in-memory-client.js";

describe("the MCP server's search_memory, in the injection history", () => {
  it("appends what a search returned — the query, each entry and the terms it matched — and nothing for a search that found nothing", async () => {
    const base = makeTempDir();
    const projectRoot = copyCorpus("iflow-kb-2026-04", base);
    const store = copyCorpus("global-store-example", base);
    const client = await connectInMemory({ projectRoot, globalStoreDir: store, cwd: base });
    const found = (await client.callTool({ name: "search_memory", arguments: { query: "embedding call timeouts retry", limit: 3 } })) as unknown as { structuredContent: { results: Array<{ hash: string }> } };
    await client.callTool({ name: "search_memory", arguments: { query: "kubernetes helm ingress" } });
    const { records } = await readInjectionHistory(store);
    expect(records.map((record) => ({ ...record, time: "", entries: record.entries.map((entry) => entry.hash) }))).toEqual([
      { time: "", session: null, project: "iflow-kb-2026-04", event: "search", ranking: "relevance", entries: found.structuredContent.results.map((result) => result.hash), chars: expect.any(Number), query: "embedding call timeouts retry", agent: "iflow-memory-test" },
    ]);
    expect(records[0]!.entries.every((entry) => (entry.matched ?? []).length > 0)).toBe(true);
  });
});
