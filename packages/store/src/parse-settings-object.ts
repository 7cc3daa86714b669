import { StoreError } from "./store-error.js";

/**
 * A JSON settings file's object: `{}` when it is missing or blank; a StoreError naming the file
 * (and the position) when it is not a JSON object, so that such a file is never rewritten.
 *
 * @example
 * parseSettingsObject("/home/ada/.claude/settings.json", { text: '{"model":"opus"}' }); // { model: "opus" }
 */
export function parseSettingsObject(path: string, file: { text: string } | { missing: true }): Record<string, unknown> {
  if (!("text" in file) || file.text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(file.text);
  } catch (error) {
    throw new StoreError("STORE_UNREADABLE", `will not change ${path}: it is not valid JSON (${(error as Error).message}); fix it by hand, then run setup again`, { cause: error });
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new StoreError("STORE_UNREADABLE", `will not change ${path}: it is JSON but not an object of settings; fix it by hand, then run setup again`);
  }
  return parsed as Record<string, unknown>;
}
