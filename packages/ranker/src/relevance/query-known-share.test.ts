import { describe, expect, it } from "vitest";
import { makeEntry } from "../__fixtures__/make-entry.js";
import { queryTerms } from "./query-terms.js";
import { queryKnownShare } from "./query-known-share.js";
import { buildRelevanceIndex } from "./relevance-index.js";

const index = buildRelevanceIndex([
  makeEntry({ name: "Retry Embedding Calls With Backoff", description: "Embedding calls time out under load; retry them with exponential backoff." }),
  makeEntry({ name: "Keep Session Hooks Fast", description: "A slow session-start hook delays every session." }),
]);

describe("queryKnownShare", () => {
  it("is the share of the query's weight on terms some entry holds", () => {
    expect(queryKnownShare(new Map([["retri", 1], ["css", 1], ["grid", 1], ["hook", 1]]), index)).toBe(0.5);
  });

  it("weighs each term as the query does, so that a familiar word in a weak part counts less", () => {
    expect(queryKnownShare(new Map([["retri", 0.5], ["css", 1], ["grid", 0.5]]), index)).toBe(0.25);
  });

  it("is 1 for a query in the bank's words, 0 for one the bank never uses and for a query without terms", () => {
    expect(queryKnownShare(queryTerms({ text: "the session start hook is slow" }), index)).toBe(1);
    expect(queryKnownShare(queryTerms({ text: "make the pricing page's css grid stack on mobile" }), index)).toBe(0);
    expect(queryKnownShare(new Map(), index)).toBe(0);
  });

  it("is not fooled by terms that are names of Object.prototype", () => {
    expect(queryKnownShare(new Map([["constructor", 1], ["__proto__", 1]]), index)).toBe(0);
  });
});
