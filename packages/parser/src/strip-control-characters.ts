// Terminal escape sequences as a whole (CSI "ESC [ … final", OSC "ESC ] … BEL|ESC \", and the
// two-character ones), then every other C0 and C1 control character but tab and newline.
const ESCAPE_SEQUENCES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[ -~]?/g;
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const ANY_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/**
 * The text without terminal escape sequences (colours, cursor moves, window titles) and without
 * any other control character but tab and newline: what an entry holds reaches an agent's
 * context and a terminal as text, never as a command to either. Text without control characters
 * is returned as it is.
 *
 * @example
 * stripControlCharacters("\u001b[31mred\u001b[0m\u0000 and\ttab"); // "red and\ttab"
 */
export function stripControlCharacters(text: string): string {
  if (!ANY_CONTROL.test(text)) return text;
  return text.replace(ESCAPE_SEQUENCES, "").replace(CONTROL_CHARACTERS, "");
}
