import { describe, expect, it } from "vitest";
import { checkRequest } from "./check-request.js";

const expected = { token: "a".repeat(43), port: 4567 };
const cookie = `iflow-memory-4567=${expected.token}`;

describe("checkRequest", () => {
  it("serves a request with the token's cookie, from 127.0.0.1 or localhost on the viewer's port", () => {
    expect(checkRequest({ method: "GET", url: "/", headers: { host: "127.0.0.1:4567", cookie: `other=1; ${cookie}` } }, expected)).toEqual({ kind: "serve" });
    expect(checkRequest({ method: "GET", url: "/sessions", headers: { host: "LOCALHOST:4567", cookie } }, expected)).toEqual({ kind: "serve" });
  });

  it("sets the cookie from the address's token and redirects to the address without it", () => {
    expect(checkRequest({ method: "GET", url: `/entry/abcd?token=${expected.token}&done=1`, headers: { host: "127.0.0.1:4567" } }, expected)).toEqual({ kind: "set-cookie", location: "/entry/abcd?done=1" });
  });

  it("refuses another Host (DNS rebinding), another port, and no Host at all, before looking at the token", () => {
    for (const host of ["evil.example:4567", "127.0.0.1:80", "127.0.0.1", undefined]) {
      expect(checkRequest({ method: "GET", url: "/", headers: { host, cookie } }, expected)).toMatchObject({ kind: "refuse", status: 403 });
    }
  });

  it("refuses a request without the token, with a wrong one, or with the cookie of another port", () => {
    const refused = { kind: "refuse", status: 401 };
    expect(checkRequest({ method: "GET", url: "/", headers: { host: "127.0.0.1:4567" } }, expected)).toMatchObject(refused);
    expect(checkRequest({ method: "GET", url: "/?token=wrong", headers: { host: "127.0.0.1:4567" } }, expected)).toMatchObject(refused);
    expect(checkRequest({ method: "GET", url: "/", headers: { host: "127.0.0.1:4567", cookie: `iflow-memory-4567=${"b".repeat(43)}` } }, expected)).toMatchObject(refused);
    expect(checkRequest({ method: "GET", url: "/", headers: { host: "127.0.0.1:4567", cookie: `iflow-memory-9999=${expected.token}` } }, expected)).toMatchObject(refused);
  });

  it("accepts a change only from the viewer's own origin, and only by POST", () => {
    const post = (headers: Record<string, string>) => checkRequest({ method: "POST", url: "/entry/abcd/forget", headers: { host: "127.0.0.1:4567", cookie, ...headers } }, expected);
    expect(post({ origin: "http://127.0.0.1:4567" })).toEqual({ kind: "serve" });
    expect(post({ "sec-fetch-site": "same-origin" })).toEqual({ kind: "serve" });
    expect(post({ origin: "http://evil.example" })).toMatchObject({ kind: "refuse", status: 403 });
    expect(post({ origin: "null" })).toMatchObject({ kind: "refuse", status: 403 });
    expect(post({})).toMatchObject({ kind: "refuse", status: 403 });
    expect(checkRequest({ method: "DELETE", url: "/", headers: { host: "127.0.0.1:4567", cookie } }, expected)).toMatchObject({ kind: "refuse", status: 405 });
  });
});
