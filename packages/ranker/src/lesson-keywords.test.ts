import { describe, expect, it } from "vitest";
import { keywordOverlap, lessonKeywords, lessonTags } from "./lesson-keywords.js";

describe("lessonKeywords", () => {
  it("lowercases, splits on every non-alphanumeric ASCII character, keeps unique tokens of three or more characters", () => {
    expect(lessonKeywords("Missing null-check in API_response (api); ok? x2 naïve")).toEqual(["missing", "null", "check", "api", "response", "naïve"]);
  });
});

describe("keywordOverlap", () => {
  it("is the floor of the percentage of the subject's keywords the other covers, 0 for no subject", () => {
    expect([keywordOverlap(["a1", "b1", "c1"], ["a1", "c1"]), keywordOverlap(["a1", "b1"], ["a1"]), keywordOverlap([], ["a1"])]).toEqual([66, 50, 0]);
  });
});

describe("lessonTags", () => {
  it("takes the first five tokens of four characters or more, in order, repeats kept", () => {
    expect(lessonTags("Check the null check before the null check returns early, always")).toEqual(["check", "null", "check", "before", "null"]);
  });
});
