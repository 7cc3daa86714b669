// Any character past ASCII: JSON.stringify escapes lone surrogates itself, so what is left are
// whole characters (a pair of surrogates is two escapes, as JSON reads them back).
const NON_ASCII = /[\u0080-\uffff]/;
const NON_ASCII_ALL = /[\u0080-\uffff]/g;

/**
 * `JSON.stringify(value)` with every character past ASCII written as a `\uXXXX` escape: the same
 * value to `JSON.parse`, in text that is all ASCII — for the caches a hook reads at every start.
 * Node decodes an ASCII file into a string of one byte a character, at its fastest; one "—" in a
 * cached injection made its 20 KB a string of two bytes a character, decoded the slow way.
 *
 * @example
 * asciiJson({ note: "retry — then wait" }); // '{"note":"retry \\u2014 then wait"}'
 */
export function asciiJson(value: unknown): string {
  const json = JSON.stringify(value);
  return NON_ASCII.test(json) ? json.replace(NON_ASCII_ALL, escapeCharacter) : json;
}

function escapeCharacter(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`;
}
