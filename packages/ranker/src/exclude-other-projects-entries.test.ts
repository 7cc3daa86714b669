import { describe, expect, it } from "vitest";
import { makeEntry } from "./__fixtures__/make-entry.js";
import { excludeOtherProjectsEntries } from "./exclude-other-projects-entries.js";

const specific = makeEntry({
  name: "Tax Table",
  scope: "global",
  tags: ["project-specific"],
  metadata: { Source: "webshop, Feature #041; Notes-App, Feature #002" },
});

describe("excludeOtherProjectsEntries", () => {
  it("★ drops a global project-specific entry whose Source names other projects only", () => {
    expect(excludeOtherProjectsEntries([specific], "infra-tools")).toEqual([]);
  });

  it("keeps it for a project its Source names, whatever the case", () => {
    expect(excludeOtherProjectsEntries([specific], "notes-app")).toEqual([specific]);
  });

  it("keeps universal global entries and every local entry", () => {
    const universal = makeEntry({ name: "U", scope: "global", tags: ["universal"], metadata: { Source: "webshop, Feature #1" } });
    const local = makeEntry({ name: "L", tags: ["project-specific"] });
    expect(excludeOtherProjectsEntries([universal, local], "infra-tools")).toEqual([universal, local]);
  });
});
