/**
 * A short, stable name for a text (FNV-1a, 32 bits, as 8 hex digits): for cache file names, where
 * a collision only costs a recomputation (the file itself says what it is for).
 *
 * @example
 * shortHash("/work/webshop"); // "4086712e"
 */
export function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}
