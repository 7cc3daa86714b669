import { describe, expect, it } from "vitest";
import { resolveGlobalStoreDir } from "./read-global-store.js";

describe("resolveGlobalStoreDir", () => {
  it("prefers the flag, then IFLOW_MEMORY_HOME, then ~/.claude/iflow/memory", () => {
    const env = { HOME: "/home/ada", IFLOW_MEMORY_HOME: "/srv/memory" };
    expect([
      resolveGlobalStoreDir({ flag: "/tmp/store", env }),
      resolveGlobalStoreDir({ env }),
      resolveGlobalStoreDir({ env: { HOME: "/home/ada", IFLOW_MEMORY_HOME: "" } }),
    ]).toEqual(["/tmp/store", "/srv/memory", "/home/ada/.claude/iflow/memory"]);
  });
});
