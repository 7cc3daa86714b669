/** What the hook reads stdin from: `process.stdin` or any stream of chunks. */
export interface HookInput extends AsyncIterable<string | Uint8Array> {
  isTTY?: boolean;
  /**
   * All of the input if it can be read without waiting (a file), else null, and the input is
   * read by iterating. Throws when the input cannot be read.
   */
  readAtOnce?: () => Uint8Array | null;
}

/**
 * All of stdin as text, or what arrived before `timeoutMs` (a hook must not hang on a stdin that
 * never closes), or before it could not be read further (`failure`). A terminal is not read at all.
 * `onWait` is called when the input is not all there already and reading it means waiting.
 */
export async function readStdin(stdin: HookInput, timeoutMs: number, onWait?: () => void): Promise<{ text: string; timedOut: boolean; failure?: string }> {
  if (stdin.isTTY === true) return { text: "", timedOut: false };
  try {
    const whole = stdin.readAtOnce?.() ?? null;
    // Buffer's own decoding: a TextDecoder's first use costs a session start half a millisecond.
    if (whole !== null) return { text: Buffer.from(whole.buffer, whole.byteOffset, whole.byteLength).toString("utf8"), timedOut: false };
  } catch (error) {
    return { text: "", timedOut: false, failure: failureOf(error) };
  }
  onWait?.();
  const decoder = new TextDecoder();
  const chunks: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
    timer.unref();
  });
  const read = (async () => {
    for await (const chunk of stdin) {
      chunks.push(typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }));
    }
    return "done" as const;
  })();
  try {
    const outcome = await Promise.race([read, timeout]);
    return { text: chunks.join("") + decoder.decode(), timedOut: outcome === "timeout" };
  } catch (error) {
    return { text: chunks.join("") + decoder.decode(), timedOut: false, failure: failureOf(error) };
  } finally {
    clearTimeout(timer);
  }
}

function failureOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}
