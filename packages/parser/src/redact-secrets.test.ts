import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CORPORA_DIR, FIXTURES_DIR } from "@iflow-memory/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findSecrets, redactSecrets } from "./redact-secrets.js";

// Fake credentials, assembled from parts so that no real-looking token sits in the source.
const r = (unit: string, times: number) => unit.repeat(times);
const SECRETS: Array<{ kind: string; text: string; redacted: string }> = [
  { kind: "aws-access-key-id", text: `key ${"AKIA"}${r("Q7XZ", 4)} here`, redacted: "key [REDACTED] here" },
  { kind: "aws-access-key-id", text: `sts ${"ASIA"}${r("B2C3", 4)}`, redacted: "sts [REDACTED]" },
  { kind: "aws-secret-access-key", text: `aws_secret_access_key = ${r("wJalrXUt9nFEMI/K7MDENG+bPxRfiCYz", 1)}${r("Ex4m", 2)}`, redacted: "aws_secret_access_key = [REDACTED]" },
  { kind: "github-token", text: `token ${"ghp"}_${r("a1B2c3", 6)}`, redacted: "token [REDACTED]" },
  { kind: "github-token", text: `${"github_pat"}_${r("11AbCdEf", 4)}_${r("xYz9", 6)}`, redacted: "[REDACTED]" },
  { kind: "github-token", text: `app ${"ghs"}_${r("Zz09", 9)}`, redacted: "app [REDACTED]" },
  { kind: "gitlab-token", text: `${"glpat"}-${r("x9Y8z7", 4)}`, redacted: "[REDACTED]" },
  { kind: "slack-token", text: `bot ${"xoxb"}-${r("1234", 3)}-${r("ab12", 4)}`, redacted: "bot [REDACTED]" },
  { kind: "slack-webhook", text: `post to https://hooks.slack.com/services/${"T000"}0/${"B000"}0/${r("Xx1", 8)}`, redacted: "post to [REDACTED]" },
  { kind: "stripe-key", text: `stripe ${"sk"}_live_${r("4eC39H", 5)}`, redacted: "stripe [REDACTED]" },
  { kind: "openai-key", text: `OPENAI ${"sk"}-proj-${r("Ab3dE", 8)}`, redacted: "OPENAI [REDACTED]" },
  { kind: "anthropic-key", text: `${"sk"}-ant-api03-${r("Zy7_x", 8)}`, redacted: "[REDACTED]" },
  { kind: "google-api-key", text: `maps ${"AIza"}Sy${r("B1c2D3e4F5", 3)}xyz`, redacted: "maps [REDACTED]" },
  { kind: "npm-token", text: `//registry.npmjs.org/:_authToken=${"npm"}_${r("aB3d", 9)}`, redacted: "//registry.npmjs.org/:_authToken=[REDACTED]" },
  { kind: "pypi-token", text: `${"pypi"}-AgEIcHlwaS5vcmc${r("Qm9vaz1", 8)}`, redacted: "[REDACTED]" },
  { kind: "sendgrid-key", text: `${"SG"}.${r("aB1cD2eF3g", 2)}h4.${r("iJ5kL6mN7o", 4)}pQ8`, redacted: "[REDACTED]" },
  { kind: "twilio-key", text: `twilio ${"SK"}${r("0123456789abcdef", 2)}`, redacted: "twilio [REDACTED]" },
  { kind: "huggingface-token", text: `${"hf"}_${r("AbCdE12345", 4)}`, redacted: "[REDACTED]" },
  { kind: "jwt", text: `Cookie: session=${"eyJ"}hbGciOiJIUzI1NiJ9.${"eyJ"}zdWIiOiIxMjM0NTY3ODkwIn0.${r("SflKxw", 4)}`, redacted: "Cookie: session=[REDACTED]" },
  { kind: "private-key-block", text: `key:\n-----BEGIN RSA ${"PRIVATE"} KEY-----\n${r("MIIEow", 10)}\n-----END RSA ${"PRIVATE"} KEY-----\ndone`, redacted: "key:\n[REDACTED]\ndone" },
  { kind: "private-key-block", text: `-----BEGIN OPENSSH ${"PRIVATE"} KEY-----\nb3Blbn\n-----END OPENSSH ${"PRIVATE"} KEY-----`, redacted: "[REDACTED]" },
  { kind: "azure-account-key", text: `DefaultEndpointsProtocol=https;AccountName=shop;AccountKey=${r("Zm9vYmFy", 8)}==;`, redacted: "DefaultEndpointsProtocol=https;AccountName=shop;AccountKey=[REDACTED];" },
  { kind: "url-password", text: "postgres://app:s3cr3t-pw@db:5432/shop", redacted: "postgres://app:[REDACTED]@db:5432/shop" },
  { kind: "url-password", text: "clone https://bot:Hunter2Hunter2@git.example.com/repo.git", redacted: "clone https://bot:[REDACTED]@git.example.com/repo.git" },
  { kind: "bearer-token", text: `curl -H "Authorization: Bearer ${r("abc123XYZ", 3)}"`, redacted: 'curl -H "Authorization: Bearer [REDACTED]"' },
  { kind: "secret-assignment", text: "DB_PASSWORD=correct-horse-42", redacted: "DB_PASSWORD=[REDACTED]" },
  { kind: "secret-assignment", text: `"client_secret": "${r("q8W", 6)}"`, redacted: '"client_secret": "[REDACTED]"' },
  { kind: "high-entropy-assignment", text: `SESSION_SIGNING=${"Kd8fQ2mZ"}${"7pXa9LwT"}${"3vRb6NyH"}`, redacted: "SESSION_SIGNING=[REDACTED]" },
];

describe("findSecrets and redactSecrets", () => {
  it("knows at least twenty formats", () => {
    expect(new Set(SECRETS.map((secret) => secret.kind)).size).toBeGreaterThanOrEqual(20);
  });

  it.each(SECRETS)("finds and redacts a $kind", ({ kind, text, redacted }) => {
    expect(findSecrets(text).map((finding) => finding.kind)).toEqual([kind]);
    expect(redactSecrets(text).text).toBe(redacted);
  });

  it("flags nothing in the real knowledge banks, the global store example and the seeds", () => {
    const files = [
      ...["iflow-kb-2026-02/docs/knowledge-bank", "iflow-kb-2026-04/docs/knowledge-bank", "global-store-example"].flatMap((folder) =>
        readdirSync(join(CORPORA_DIR, folder)).map((file) => join(CORPORA_DIR, folder, file)),
      ),
      ...readdirSync(join(FIXTURES_DIR, "seeds")).map((file) => join(FIXTURES_DIR, "seeds", file)),
    ];
    expect(files.length).toBeGreaterThan(10);
    const flagged = files.flatMap((file) => findSecrets(readFileSync(file, "utf8")).map((finding) => `${file}: ${finding.kind}`));
    expect(flagged).toEqual([]);
  });

  it("redacts a quoted password that contains spaces, the whole of it", () => {
    expect(redactSecrets('db: password: "correct horse battery 42"').text).toBe('db: password: "[REDACTED]"');
    expect(redactSecrets("DB_PASSWORD='my secret pass 123' next").text).toBe("DB_PASSWORD='[REDACTED]' next");
    expect(findSecrets('the password: "must be changed every ninety days by the admin team"')).toEqual([]);
  });

  it("finds nothing in what it redacted: a redacted GCP service-account key is not flagged again", () => {
    const key = `{"type": "service_account", "private_key_id": "${r("1a2b3c4d", 5)}", "private_key": "-----BEGIN ${"PRIVATE"} KEY-----\\n${r("MIIEvQ", 8)}\\n-----END ${"PRIVATE"} KEY-----\\n"}`;
    const once = redactSecrets(key);
    expect(once.text).toBe('{"type": "service_account", "private_key_id": "[REDACTED]", "private_key": "[REDACTED]"}');
    expect(findSecrets(once.text)).toEqual([]);
    expect(findSecrets(redactSecrets(`maps ${"AIza"}Sy${r("B1c2D3e4F5", 3)}xyz-`).text)).toEqual([]);
  });

  it("does not flag look-alikes: hashes, UUIDs, placeholders, variables, plain settings, URLs without a password, emails", () => {
    const text = [
      "commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
      "- Content-Hash: sha256:0baa2a5b66eb2269",
      "id 123e4567-e89b-12d3-a456-426614174000",
      "LOG_LEVEL=debug",
      "password=<your password>",
      "API_KEY=${API_KEY}",
      "token: process.env.GITHUB_TOKEN",
      "password: required",
      "see https://example.com/path?query=1 and ssh://git@github.com/org/repo",
      "mail ada@example.com",
      "postgres://app:${DB_PASSWORD}@db/shop",
      "file docs/knowledge-bank/anti-patterns.md",
    ].join("\n");
    expect(findSecrets(text)).toEqual([]);
  });

  it("never throws, and leaves nothing to find in what it redacted", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.constantFrom(...SECRETS.map((secret) => secret.text))), { maxLength: 6 }).map((parts) => parts.join(" ")), (text) => {
        const { text: redacted } = redactSecrets(text);
        expect(findSecrets(redacted)).toEqual([]);
      }),
    );
  });
});
