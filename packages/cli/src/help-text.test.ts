import { describe, expect, it } from "vitest";
import { formatTopLevelHelp, TOP_LEVEL_HELP } from "./help-text.js";
import { run } from "./run.js";

// Commander's own `--help`, as it lays it out for a terminal `columns` wide (undefined: not a terminal).
async function commanderHelp(columns: number | undefined): Promise<string> {
  const { isTTY, columns: before } = process.stdout;
  Object.assign(process.stdout, { isTTY: columns !== undefined, columns });
  try {
    let stdout = "";
    const code = await run({ argv: ["--help"], stdin: process.stdin, stdout: { write: (text: string) => (stdout += text) }, stderr: { write: () => true }, env: {}, cwd: "/" });
    expect(code).toBe(0);
    return stdout;
  } finally {
    Object.assign(process.stdout, { isTTY, columns: before });
  }
}

describe("formatTopLevelHelp", () => {
  it("prints what commander prints for --help where stdout is not a terminal", async () => {
    expect(formatTopLevelHelp(TOP_LEVEL_HELP, 80)).toBe(await commanderHelp(undefined));
  });

  it.each([20, 39, 40, 60, 79, 100, 132, 250])("prints what commander prints for --help in a terminal %i columns wide", async (columns) => {
    expect(formatTopLevelHelp(TOP_LEVEL_HELP, columns)).toBe(await commanderHelp(columns));
  });
});
