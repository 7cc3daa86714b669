import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CLI_BIN, runNode } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { rawRequest, realBank, startUi, stopUi } from "./run-ui.js";

// The viewer's gate over HTTP, without a browser (these run wherever Chromium is missing too).
describe("iflow-memory ui, over HTTP", () => {
  it("refuses what it must: no token, a wrong token, another Host, a change by GET, from another origin or without the form's token", async () => {
    const { projectRoot, store, env } = await realBank();
    const ui = await startUi(["--project-root", projectRoot, "--global-store", store], env);
    const host = `127.0.0.1:${ui.port}`;
    const cookie = `iflow-memory-${ui.port}=${ui.token}`;
    const get = (path: string, headers: Record<string, string>) => rawRequest(ui.port, "GET", path, headers);
    try {
      // Nothing of the store without the token.
      for (const answer of [await get("/", { host }), await get("/entry/0baa2a5b66eb2269", { host }), await get("/style.css", { host }), await get(`/?token=${"x".repeat(43)}`, { host })]) {
        expect([answer.status, answer.body.includes("Live Line Numbers")]).toEqual([401, false]);
      }
      // The address's token sets the cookie (HttpOnly, SameSite=Strict, this port's) and is dropped from the address.
      const welcome = await get(`/sessions?token=${ui.token}`, { host });
      expect([welcome.status, welcome.headers.location, welcome.headers["set-cookie"]]).toEqual([303, "/sessions", [`${cookie}; HttpOnly; SameSite=Strict; Path=/`]]);
      const page = await get("/entry/0baa2a5b66eb2269", { host, cookie });
      expect([page.status, page.headers["content-security-policy"], page.body.includes("Live Line Numbers")]).toEqual([200, "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'", true]);
      expect((await get("/", { host: `localhost:${ui.port}`, cookie })).status).toBe(200);

      // Another Host (a rebound DNS name) is refused even with the cookie; a change by GET is no change.
      const rebound = await get("/", { host: `attacker.example:${ui.port}`, cookie });
      expect([rebound.status, rebound.body.includes("Live Line Numbers")]).toEqual([403, false]);
      expect((await get("/entry/491b5e15f50c1c0d/forget", { host, cookie })).status).toBe(404);

      const post = (headers: Record<string, string>, body = `token=${ui.token}`) => rawRequest(ui.port, "POST", "/entry/491b5e15f50c1c0d/forget", { host, "content-type": "application/x-www-form-urlencoded", ...headers }, body);
      expect((await post({ cookie, origin: "http://attacker.example" })).status).toBe(403);
      expect((await post({ cookie, origin: "null" })).status).toBe(403);
      expect((await post({ cookie })).status).toBe(403);
      expect((await post({ origin: `http://${host}` })).status).toBe(401);
      expect((await post({ cookie, origin: `http://${host}` }, "token=wrong")).status).toBe(403);
      expect((await post({ cookie, origin: `http://${host}`, "content-type": "text/plain" })).status).toBe(415);
      expect(readFileSync(join(store, "heuristics.md"), "utf8")).toContain("491b5e15f50c1c0d");
      expect(existsSync(join(store, ".archive.md"))).toBe(false);
      // The same request from the viewer's origin, with the token, is a change: the store's forget.
      const done = await post({ cookie, origin: `http://${host}` });
      expect([done.status, done.headers.location]).toEqual([303, "/?done=forgotten&hash=491b5e15f50c1c0d&name=Standard+Mode+Sufficient+for+Standalone+New-Component+Features"]);
      expect(readFileSync(join(store, "heuristics.md"), "utf8")).not.toContain("491b5e15f50c1c0d");
      expect(readFileSync(join(store, ".archive.md"), "utf8")).toContain("### Heuristic: Standard Mode Sufficient for Standalone New-Component Features\n");
    } finally {
      expect(await stopUi(ui.process)).toBe(0);
    }
  });

  it("escapes an entry's HTML on every page that shows it", async () => {
    const { projectRoot, store, env } = await realBank();
    const ui = await startUi(["--project-root", projectRoot, "--global-store", store], env);
    const headers = { host: `127.0.0.1:${ui.port}`, cookie: `iflow-memory-${ui.port}=${ui.token}` };
    try {
      const list = await rawRequest(ui.port, "GET", "/?q=markup+text+shown", headers);
      const hash = /href="\/entry\/([0-9a-f]{16})">Markup Is Text</.exec(list.body)?.[1];
      const entry = await rawRequest(ui.port, "GET", `/entry/${hash}`, headers);
      for (const body of [list.body, entry.body]) {
        expect(body).not.toMatch(/<img|<script/i);
        expect(body).toContain("&lt;img src=x onerror=&quot;document.title=&#39;pwned&#39;&quot;&gt;");
      }
    } finally {
      expect(await stopUi(ui.process)).toBe(0);
    }
  });

  it("says in one line that a port is taken, and refuses a port that is not one", async () => {
    const { projectRoot, store, env } = await realBank();
    const ui = await startUi(["--project-root", projectRoot, "--global-store", store], env);
    try {
      const taken = await runNode(CLI_BIN, ["ui", "--port", String(ui.port), "--project-root", projectRoot, "--global-store", store], { env });
      expect([taken.code, taken.stdout, taken.stderr]).toEqual([1, "", `iflow-memory: cannot serve on 127.0.0.1:${ui.port}: the port is in use; choose another --port, or 0 for a free one\n`]);
      const bad = await runNode(CLI_BIN, ["ui", "--port", "65536"], { env });
      expect([bad.code, bad.stderr]).toEqual([2, `iflow-memory: option '--port <n>' argument '65536' is invalid. --port takes a whole number from 0 to 65535, not "65536". (see iflow-memory --help)\n`]);
    } finally {
      expect(await stopUi(ui.process)).toBe(0);
    }
  });
});
