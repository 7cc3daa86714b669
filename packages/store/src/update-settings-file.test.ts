import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir } from "@iflow-memory/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJsonText } from "./parse-settings-object.js";
import { updateSettingsFile } from "./update-settings-file.js";

// Gemini CLI's settings as a user keeps them: comments above and inside, another hook, an MCP server.
const COMMENTED = `{
  // Log in with the API key in GEMINI_API_KEY
  "security": {
    "auth": {
      "selectedType": "gemini-api-key" // not oauth
    }
  },
  /* hooks of my own */
  "hooks": {
    "SessionStart": [
      { "hooks": [{ "type": "command", "command": "echo hello" }] } // greets
    ]
  },
  "mcpServers": {
    // the docs server
    "docs": { "command": "docs-mcp" }
  },
  "theme": "Dracula"
}
`;
const COMMENTS = ["// Log in with the API key in GEMINI_API_KEY", "// not oauth", "/* hooks of my own */", "// greets", "// the docs server"];

const OURS = { hooks: [{ type: "command", command: "node session-start.cjs --agent gemini" }] };

function file(text: string): string {
  const path = join(makeTempDir(), "settings.json");
  writeFileSync(path, text);
  return path;
}

const read = (path: string) => {
  const result = parseJsonText(readFileSync(path, "utf8"), { comments: true });
  if (!("value" in result)) throw new Error(result.error);
  return result.value;
};

describe("updateSettingsFile with comments (Gemini CLI's settings)", () => {
  it("changes only what changes in a file with comments: its comments and layout stay, and it reads back as the settings given", async () => {
    const path = file(COMMENTED);
    const settings = read(path) as Record<string, Record<string, unknown>>;
    const installed = {
      ...settings,
      hooks: { ...settings.hooks, SessionStart: [...(settings.hooks!.SessionStart as unknown[]), OURS], BeforeAgent: [OURS] },
      mcpServers: { ...settings.mcpServers, "iflow-memory": { command: "node", args: ["mcp-server.cjs"] } },
    };
    const result = await updateSettingsFile(path, () => ({ settings: installed, changed: true }), { comments: true });
    const text = readFileSync(path, "utf8");
    expect([result.backup, read(path)]).toEqual([`${path}.iflow-memory.bak`, installed]);
    // Every line as it was but for the commas after the elements that are no longer last (a
    // comment stays after the element it was written beside); what was added laid out as the file is.
    const ours = (indent: string) => ["{", '  "hooks": [', "    {", '      "type": "command",', '      "command": "node session-start.cjs --agent gemini"', "    }", "  ]", "}"].map((line) => indent + line).join("\n");
    expect(text).toBe(
      COMMENTED.replace('"echo hello" }] } // greets\n    ]', `"echo hello" }] }, // greets\n${ours("      ")}\n    ],\n    "BeforeAgent": [\n${ours("      ")}\n    ]`).replace(
        '"docs": { "command": "docs-mcp" }\n',
        '"docs": { "command": "docs-mcp" },\n    "iflow-memory": {\n      "command": "node",\n      "args": [\n        "mcp-server.cjs"\n      ]\n    }\n',
      ),
    );
    expect(COMMENTS.filter((comment) => !text.includes(comment))).toEqual([]);

    // Taken out again (our group, our event, our server): the file is the one it was.
    await updateSettingsFile(path, () => ({ settings, changed: true }), { comments: true });
    expect(readFileSync(path, "utf8")).toBe(COMMENTED);
  });

  it("changes a value inside a kept array, and removes a key, where they are", async () => {
    const path = file(COMMENTED);
    const settings = read(path) as { hooks: { SessionStart: Array<{ hooks: Array<Record<string, unknown>> }> }; theme?: string };
    const { theme: _theme, ...rest } = settings;
    const changed = { ...rest, hooks: { SessionStart: [{ hooks: [{ type: "command", command: "echo bye" }] }] } };
    await updateSettingsFile(path, () => ({ settings: changed, changed: true }), { comments: true });
    const text = readFileSync(path, "utf8");
    expect([read(path), text.includes('"theme"'), COMMENTS.filter((comment) => !text.includes(comment))]).toEqual([changed, false, []]);
  });

  it.each([
    ["the last element of an array on one line", '{ // mine\n "a": [1, {"b": 2}] }', { a: [1] }],
    ["the first element", '{ // mine\n "a": [{"b": 2}, 1] }', { a: [1] }],
    ["a middle element, a comment after it", '{ // mine\n "a": [1, 2 /* two */, 3] }', { a: [1, 3] }],
    ["the only element", '{ // mine\n "a": [{"b": 2}] }', { a: [] }],
    ["elements laid out on lines, the comment after the one kept", '{\n  // mine\n  "a": [\n    1, // one\n    2\n  ]\n}', { a: [1] }],
    ["the last key", '{ // mine\n "a": 1, "b": 2 }', { a: 1 }],
    ["the first key", '{ // mine\n "a": 1, "b": 2 }', { b: 2 }],
    ["the only key", '{ "a": 1 /* one */ }', {}],
  ])("removes %s, and keeps every comment", async (_, text, after) => {
    const path = file(text);
    await updateSettingsFile(path, () => ({ settings: after, changed: true }), { comments: true });
    const written = readFileSync(path, "utf8");
    const comments = text.match(/\/\/[^\n]*|\/\*.*?\*\//g) ?? [];
    expect([read(path), comments.filter((comment) => !written.includes(comment))]).toEqual([after, []]);
  });

  it("writes a file without comments as it writes any settings file", async () => {
    const plain = `${JSON.stringify({ theme: "Dracula" })}\n`;
    const path = file(plain);
    await updateSettingsFile(path, (settings) => ({ settings: { ...settings, hooks: {} }, changed: true }), { comments: true });
    expect(readFileSync(path, "utf8")).toBe(`${JSON.stringify({ theme: "Dracula", hooks: {} }, null, 2)}\n`);
  });

  it("refuses a trailing comma, or comments where they are not allowed, and changes nothing", async () => {
    for (const [text, comments] of [
      ['{ "theme": "Dracula", }', true],
      ['{ // mine\n "theme": "Dracula" }', false],
    ] as const) {
      const path = file(text);
      await expect(updateSettingsFile(path, () => ({ settings: {}, changed: true }), { comments })).rejects.toThrow(/^will not change .*settings\.json: it is not valid JSON \(.*\); fix it by hand, then run setup again$/);
      expect(readFileSync(path, "utf8")).toBe(text);
    }
  });

  it("keeps a \"__proto__\" key a key, read and written (jsonc-parser alone would make it the object's prototype, and refuse the change)", async () => {
    const after = JSON.parse('{"a":{"__proto__":false},"__proto__":{"b":1}}') as Record<string, unknown>;
    const path = file("// mine\n{}\n");
    await updateSettingsFile(path, () => ({ settings: after, changed: true }), { comments: true });
    expect(read(path)).toEqual(after);
    expect(Object.keys(read(path) as object)).toEqual(["a", "__proto__"]);
    expect(readFileSync(path, "utf8").startsWith("// mine\n")).toBe(true);
  });

  it("reads back as the settings given, whatever they and the file were (property)", async () => {
    const json = fc.jsonValue({ maxDepth: 3 });
    const settings = fc.dictionary(fc.constantFrom("a", "b", "hooks", "c d", "é"), json, { maxKeys: 4 });
    await fc.assert(
      // Laid out as JSON.stringify lays it out, or on one line (where jsonc-parser's own removal of
      // an array's last element leaves a character behind).
      fc.asyncProperty(settings, settings, fc.constantFrom(2, 0), async (before, after, indent) => {
        const path = file(`// mine\n${JSON.stringify(before, null, indent)}\n`);
        await updateSettingsFile(path, () => ({ settings: after, changed: true }), { comments: true });
        const text = readFileSync(path, "utf8");
        // fast-check's JSON values hold -0, which JSON cannot: compare as JSON gives them.
        expect([read(path), text.startsWith("// mine\n")]).toEqual([JSON.parse(JSON.stringify(after)), true]);
      }),
      { numRuns: 300 },
    );
  });
});
