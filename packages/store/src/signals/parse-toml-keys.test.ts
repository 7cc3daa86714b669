import { dedent } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { parseTomlKeys, tomlStrings } from "./parse-toml-keys.js";

describe("parseTomlKeys", () => {
  it("reads tables, array tables, dotted and quoted keys, multi-line arrays and inline tables", () => {
    const text = dedent`
      title = "top" # a comment
      [package]
      name = "a # not a comment"
      [[bin]]
      name = "cli"
      [ "tool" . poetry ]
      "quoted.key" = 1
      list = [
        "x[1]", # a bracket in a string
        { y = [2] },
      ]
      multi = '''
      [not.a.table]
      key = "not a key"
      '''
      after = true
    `;
    expect(parseTomlKeys(text)).toEqual([
      { table: "", key: ["title"], value: '"top"' },
      { table: "package", key: ["name"], value: '"a # not a comment"' },
      { table: "bin", key: ["name"], value: '"cli"' },
      { table: "tool.poetry", key: ["quoted.key"], value: "1" },
      { table: "tool.poetry", key: ["list"], value: '[\n  "x[1]", \n  { y = [2] },\n]' },
      { table: "tool.poetry", key: ["multi"], value: "" },
      { table: "tool.poetry", key: ["after"], value: "true" },
    ]);
  });

  it("passes over lines it does not understand and an array left open", () => {
    expect(parseTomlKeys("garbage line\n= 3\nok = 1\nopen = [\n\"a\",\n")).toEqual([
      { table: "", key: ["ok"], value: "1" },
      { table: "", key: ["open"], value: '[\n"a",' },
    ]);
  });
});

describe("tomlStrings", () => {
  it("gives the string literals of a value in order, unescaped", () => {
    expect(tomlStrings(`["a>=1", 'b', "c \\"quoted\\""]`)).toEqual(["a>=1", "b", 'c "quoted"']);
  });
});
