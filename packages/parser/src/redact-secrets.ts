/** A credential found in a text: what kind, and where (UTF-16 offsets, end exclusive). */
export interface SecretFinding {
  kind: string;
  start: number;
  end: number;
}

interface SecretRule {
  kind: string;
  pattern: RegExp;
  /** The capture group that is the secret itself (0: the whole match). */
  group?: number;
  /** A further check on the secret. */
  accept?: (secret: string) => boolean;
}

// Every pattern is linear: no nested quantifiers, bounded alternations.
const RULES: readonly SecretRule[] = [
  { kind: "private-key-block", pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/g },
  { kind: "aws-access-key-id", pattern: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b/g },
  { kind: "aws-secret-access-key", pattern: /\baws_?secret_?access_?key\b["']?\s*[:=]\s*["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])/gi, group: 1 },
  { kind: "github-token", pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g },
  { kind: "gitlab-token", pattern: /\bglpat-[A-Za-z0-9_-]{20,}\b/g },
  { kind: "slack-token", pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}\b/g },
  { kind: "slack-webhook", pattern: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9_/]{20,}/g },
  { kind: "stripe-key", pattern: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,}\b/g },
  { kind: "anthropic-key", pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: "openai-key", pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g, accept: (secret) => !secret.startsWith("sk-ant-") && /[0-9]/.test(secret) && /[A-Za-z]/.test(secret.slice(3)) },
  { kind: "google-api-key", pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { kind: "npm-token", pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { kind: "pypi-token", pattern: /\bpypi-AgE[A-Za-z0-9_-]{50,}/g },
  { kind: "sendgrid-key", pattern: /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b/g },
  { kind: "twilio-key", pattern: /\bSK[0-9a-f]{32}\b/g },
  { kind: "huggingface-token", pattern: /\bhf_[A-Za-z0-9]{34,}\b/g },
  { kind: "jwt", pattern: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g },
  { kind: "azure-account-key", pattern: /\bAccountKey=([A-Za-z0-9+/]{40,}={0,2})/g, group: 1 },
  { kind: "url-password", pattern: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s/:@]{1,64}:([^\s/@]{1,128})@/gi, group: 1, accept: (secret) => !secret.includes("[REDACTED]") && !/^(?:\*+|x+|<[^>]*>|\$\{[^}]*\}|password|pass|secret)$/i.test(secret) },
  { kind: "bearer-token", pattern: /\bAuthorization:\s*Bearer\s+([A-Za-z0-9._~+/-]{20,}=*)/gi, group: 1 },
  {
    kind: "secret-assignment",
    pattern: /\b[A-Za-z0-9_.-]{0,40}(?:password|passwd|secret|token|api_?key|apikey|access_?key|private_?key|client_?secret|auth)[A-Za-z0-9_.-]{0,20}["']?\s*[:=]\s*["']?([^\s"'`,;]{8,})/gi,
    group: 1,
    accept: (secret) => looksSecret(secret),
  },
  // A quoted value may hold spaces (a passphrase): the whole quoted text is the secret.
  { kind: "secret-assignment", pattern: /\b[A-Za-z0-9_.-]{0,40}(?:password|passwd|passphrase|secret|token|api_?key|apikey|access_?key|private_?key|client_?secret)[A-Za-z0-9_.-]{0,20}["']?\s*[:=]\s*"([^"\n]{8,200})"/gi, group: 1, accept: (secret) => looksQuotedSecret(secret) },
  { kind: "secret-assignment", pattern: /\b[A-Za-z0-9_.-]{0,40}(?:password|passwd|passphrase|secret|token|api_?key|apikey|access_?key|private_?key|client_?secret)[A-Za-z0-9_.-]{0,20}["']?\s*[:=]\s*'([^'\n]{8,200})'/gi, group: 1, accept: (secret) => looksQuotedSecret(secret) },
  { kind: "high-entropy-assignment", pattern: /\b[A-Z][A-Z0-9_]{2,40}=["']?([A-Za-z0-9+/_=-]{20,})/g, group: 1, accept: (secret) => highEntropy(secret) },
];

// What every rule's match contains (a superset, checked first): most texts hold none of it, and
// one scan for these is far cheaper than every rule's own (redaction runs on every entry read).
const TRIGGERS = /-----BEGIN|A(?:KIA|SIA|GPA|IDA|ROA|NPA|NVA|IPA)|aws|gh[pousr]_|github_pat_|glpat-|xox[abprs]-|hooks\.slack\.com|[sr]k_(?:live|test)_|sk-|AIza|npm_|pypi-|SG\.|SK[0-9a-f]{32}|hf_|eyJ|AccountKey=|:\/\/|bearer|passw|passphrase|secret|token|api_?key|apikey|access_?key|private_?key|auth/i;
const UPPERCASE_ASSIGNMENT = /[A-Z0-9_]{3}=/;

// With match indices, to know where a captured secret starts.
const COMPILED = /* @__PURE__ */ RULES.map((rule) => ({ ...rule, pattern: new RegExp(rule.pattern.source, `${rule.pattern.flags}d`) }));

/**
 * The credentials in a text: cloud keys (AWS, Google, Azure), tokens of the common providers
 * (GitHub, GitLab, Slack, Stripe, OpenAI, Anthropic, npm, PyPI, SendGrid, Twilio, Hugging Face),
 * JWTs, private key blocks, passwords in URLs, bearer tokens, and `KEY=value` assignments whose
 * name says secret or whose value looks random (≥ 20 characters, ≥ 3.5 bits of entropy per
 * character, letters and digits mixed). Placeholders (`<token>`, `${TOKEN}`, `****`) are not
 * secrets. Sorted by position, never overlapping.
 *
 * @example
 * findSecrets("export GITHUB_TOKEN=ghp_" + "a1".repeat(18)); // [{ kind: "github-token", start: 20, end: 60 }]
 */
export function findSecrets(text: string): SecretFinding[] {
  if (!TRIGGERS.test(text) && !UPPERCASE_ASSIGNMENT.test(text)) return [];
  const found: SecretFinding[] = [];
  for (const rule of COMPILED) {
    for (const match of text.matchAll(rule.pattern)) {
      const secret = match[rule.group ?? 0];
      if (secret === undefined || secret === "") continue;
      if (rule.accept !== undefined && !rule.accept(secret)) continue;
      const [start] = match.indices?.[rule.group ?? 0] ?? [match.index];
      found.push({ kind: rule.kind, start: start!, end: start! + secret.length });
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: SecretFinding[] = [];
  for (const finding of found) {
    const last = merged.at(-1);
    if (last !== undefined && finding.start < last.end) continue; // inside an earlier, longer finding
    merged.push(finding);
  }
  return merged;
}

/**
 * The text with every secret replaced by `[REDACTED]` (only the password of a URL, only the
 * value of an assignment), and what was found.
 *
 * @example
 * redactSecrets("postgres://app:s3cr3t-pw@db:5432/shop").text; // "postgres://app:[REDACTED]@db:5432/shop"
 */
export function redactSecrets(text: string): { text: string; findings: SecretFinding[] } {
  const findings = findSecrets(text);
  let result = "";
  let copied = 0;
  for (const finding of findings) {
    result += `${text.slice(copied, finding.start)}[REDACTED]`;
    copied = finding.end;
  }
  return { text: result + text.slice(copied), findings };
}

function looksSecret(value: string): boolean {
  // Text already redacted (a JSON key "[REDACTED]\n", "[REDACTED]-") is not found again.
  if (value.includes("[REDACTED]")) return false;
  if (/^(?:\*+|x+|\.+|<[^>]*>?|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|%[A-Za-z_]+%|\{\{[^}]*\}\}?|\[REDACTED\]|true|false|null|none|undefined|required|optional|changeme|example|placeholder)$/i.test(value)) return false;
  if (/^[a-z]+(?:[-_.][a-z]+)*$/.test(value)) return false; // a word or identifier, e.g. "password=required", "token=session_id"
  if (/^(?:process\.env|os\.environ|env\.|getenv|secrets\.)/i.test(value)) return false;
  return /[0-9]/.test(value) || /[^A-Za-z]/.test(value) ? highEntropy(value) || value.length >= 12 : false;
}

// A quoted value with a space in it, a few words long: a passphrase, not a sentence of prose.
function looksQuotedSecret(value: string): boolean {
  const words = value.trim().split(/\s+/);
  return /\s/.test(value.trim()) && words.length <= 6 && !/\$\{|\{\{|<[^>]*>|\[REDACTED\]/.test(value) && looksSecret(value.trim());
}

function highEntropy(value: string): boolean {
  if (value.length < 20) return false;
  if (!(/[A-Za-z]/.test(value) && /[0-9]/.test(value))) return false;
  const counts = new Map<string, number>();
  for (const character of value) counts.set(character, (counts.get(character) ?? 0) + 1);
  let entropy = 0;
  for (const count of counts.values()) {
    const p = count / value.length;
    entropy -= p * Math.log2(p);
  }
  return entropy >= 3.5;
}
