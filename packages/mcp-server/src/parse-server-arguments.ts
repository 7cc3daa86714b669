/**
 * The standalone server's arguments: `--project-root DIR`, `--global-store DIR` (also as
 * `--flag=DIR`), `--help`.
 *
 * @example
 * parseServerArguments(["--project-root", "/work/webshop"]); // { projectRoot: "/work/webshop" }
 * parseServerArguments(["--port", "1"]); // { error: "unknown option --port; the options are --project-root DIR and --global-store DIR" }
 */
export function parseServerArguments(argv: readonly string[]): { projectRoot?: string; globalStoreDir?: string } | { help: true } | { error: string } {
  const result: { projectRoot?: string; globalStoreDir?: string } = {};
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    if (argument === "--help" || argument === "-h") return { help: true };
    const [flag, inline] = argument.startsWith("--") && argument.includes("=") ? [argument.slice(0, argument.indexOf("=")), argument.slice(argument.indexOf("=") + 1)] : [argument, undefined];
    const key = flag === "--project-root" ? "projectRoot" : flag === "--global-store" ? "globalStoreDir" : null;
    if (key === null) return { error: `unknown option ${flag}; the options are --project-root DIR and --global-store DIR` };
    const value = inline ?? argv[++index];
    if (value === undefined || value === "") return { error: `${flag} needs a folder` };
    result[key] = value;
  }
  return result;
}
