import { timingSafeEqual } from "node:crypto";

/** What the checks read of a request. */
export interface RequestHead {
  method: string;
  /** The request target: path and query. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
}

/** What to do with a request: serve it, set the token's cookie first, or refuse it (nothing of the store in the answer). */
export type RequestVerdict = { kind: "serve" } | { kind: "set-cookie"; location: string } | { kind: "refuse"; status: 400 | 401 | 403 | 405; reason: string };

/** The name of the cookie that carries the token: one per port, so that two viewers never overwrite each other's. */
export function tokenCookieName(port: number): string {
  return `iflow-memory-${port}`;
}

/**
 * The viewer's gate, before anything of the store is read:
 * - the Host header must be 127.0.0.1 or localhost on the viewer's port (a page on another
 *   name that resolves to 127.0.0.1 — DNS rebinding — is refused);
 * - the token must come with the request: in the cookie, or in the URL's `token` (which sets
 *   the cookie and redirects to the same address without it);
 * - a change (POST) must also come from the viewer's own pages: its Origin (or, without one,
 *   `Sec-Fetch-Site: same-origin`) must be the viewer's. The form's own token field is checked
 *   where the body is read.
 *
 * @example
 * checkRequest({ method: "GET", url: "/?token=…", headers: { host: "127.0.0.1:4567" } }, { token, port: 4567 });
 * // { kind: "set-cookie", location: "/" }
 */
export function checkRequest(request: RequestHead, expected: { token: string; port: number }): RequestVerdict {
  const host = header(request.headers, "host")?.toLowerCase();
  if (host !== `127.0.0.1:${expected.port}` && host !== `localhost:${expected.port}`) {
    return { kind: "refuse", status: 403, reason: `this viewer answers only to 127.0.0.1:${expected.port} and localhost:${expected.port}` };
  }
  if (!["GET", "HEAD", "POST"].includes(request.method)) return { kind: "refuse", status: 405, reason: `${request.method} is not served here` };
  const url = new URL(request.url, `http://${host}`);
  const fromUrl = url.searchParams.get("token");
  if (fromUrl !== null && request.method !== "POST") {
    if (!sameToken(fromUrl, expected.token)) return { kind: "refuse", status: 401, reason: "the token in the address is not this run's; open the address iflow-memory ui printed" };
    url.searchParams.delete("token");
    return { kind: "set-cookie", location: `${url.pathname}${url.search}` };
  }
  const fromCookie = cookie(header(request.headers, "cookie"), tokenCookieName(expected.port));
  if (fromCookie === undefined || !sameToken(fromCookie, expected.token)) {
    return { kind: "refuse", status: 401, reason: "no valid token; open the address iflow-memory ui printed (it holds this run's token)" };
  }
  if (request.method === "POST") {
    const origin = header(request.headers, "origin");
    const fetchSite = header(request.headers, "sec-fetch-site");
    const sameOrigin = origin !== undefined ? origin.toLowerCase() === `http://${host}` : fetchSite === "same-origin";
    if (!sameOrigin) return { kind: "refuse", status: 403, reason: "a change must come from this viewer's own page" };
  }
  return { kind: "serve" };
}

/** Compares two tokens in a time that does not depend on where they differ. */
export function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given, "utf8");
  const b = Buffer.from(expected, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}

function header(headers: RequestHead["headers"], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function cookie(text: string | undefined, name: string): string | undefined {
  for (const part of (text ?? "").split(";")) {
    const index = part.indexOf("=");
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}
