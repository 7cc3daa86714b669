/** What the hook reads stdin from: `process.stdin` or any stream of chunks. */
export interface HookInput extends AsyncIterable<string | Uint8Array> {
  isTTY?: boolean;
}

/**
 * All of stdin as text, or what arrived before `timeoutMs` (a hook must not hang on a stdin that
 * never closes), or before it could not be read further (`failure`). A terminal is not read at all.
 */
export async function readStdin(stdin: HookInput, timeoutMs: number): Promise<{ text: string; timedOut: boolean; failure?: string }> {
  if (stdin.isTTY === true) return { text: "", timedOut: false };
  const chunks: string[] = [];
  const decoder = new TextDecoder();
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
    return { text: chunks.join("") + decoder.decode(), timedOut: false, failure: (error as NodeJS.ErrnoException).code ?? (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}
