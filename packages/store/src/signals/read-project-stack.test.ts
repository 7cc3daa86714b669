import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dedent, makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { MAX_MANIFEST_BYTES, readProjectStack } from "./read-project-stack.js";

function project(files: Record<string, string>): string {
  const root = makeTempDir();
  for (const [path, text] of Object.entries(files)) writeFileSync(join(root, path), text);
  return root;
}

describe("readProjectStack", () => {
  it("reads package.json: node, typescript, dependencies then devDependencies, @types left out", () => {
    const root = project({
      "package.json": JSON.stringify({ name: "webshop", dependencies: { express: "^4", zod: "^3" }, devDependencies: { typescript: "^5", "@types/express": "^4", vitest: "^3" } }),
    });
    expect(readProjectStack(root)).toEqual({ name: "webshop", stack: ["node", "typescript", "express", "zod", "vitest"], skipped: [] });
  });

  it("marks typescript by a tsconfig.json alone", () => {
    expect(readProjectStack(project({ "package.json": "{}", "tsconfig.json": "{}" }))).toEqual({ name: null, stack: ["node", "typescript"], skipped: [] });
  });

  it("reads pyproject's [project] name and PEP 508 dependencies", () => {
    const root = project({
      "pyproject.toml": dedent`
        [project]
        name = "semantic-memory"
        description = """
        [not.a.table]
        """
        dependencies = [
          "httpx[http2]>=0.27",  # the client
          'tenacity ; python_version >= "3.9"',
          "numpy==2.*",
        ]

        [project.optional-dependencies]
        dev = ["pytest"]
      `,
    });
    expect(readProjectStack(root)).toEqual({ name: "semantic-memory", stack: ["python", "httpx", "tenacity", "numpy"], skipped: [] });
  });

  it("reads Poetry's name and dependency tables, python itself left out", () => {
    const root = project({
      "pyproject.toml": dedent`
        [tool.poetry]
        name = "retrieval"

        [tool.poetry.dependencies]
        python = "^3.11"
        requests = "^2.31"
        pydantic = { version = "^2", extras = ["email"] }

        [tool.poetry.group.dev.dependencies]
        pytest = "^8"

        [tool.poetry.dependencies.numpy]
        version = "^2"
      `,
    });
    expect(readProjectStack(root)).toEqual({ name: "retrieval", stack: ["python", "requests", "pydantic", "pytest", "numpy"], skipped: [] });
  });

  it("marks python by setup.py or requirements.txt", () => {
    expect([readProjectStack(project({ "setup.py": "" })).stack, readProjectStack(project({ "requirements.txt": "flask\n" })).stack]).toEqual([["python"], ["python"]]);
  });

  it("reads go.mod's module and direct requirements by their last path segment", () => {
    const root = project({
      "go.mod": dedent`
        module github.com/acme/indexer/v2

        go 1.22

        require github.com/spf13/cobra v1.8.0

        require (
          github.com/cenkalti/backoff/v4 v4.3.0
          gopkg.in/yaml.v3 v3.0.1
          golang.org/x/sys v0.20.0 // indirect
        )
      `,
    });
    expect(readProjectStack(root)).toEqual({ name: "indexer", stack: ["go", "cobra", "backoff", "yaml.v3"], skipped: [] });
  });

  it("reads Cargo.toml's package name and dependencies in every form", () => {
    const root = project({
      "Cargo.toml": dedent`
        [package]
        name = "embedder"
        version = "0.1.0"

        [dependencies]
        tokio = { version = "1", features = ["full"] }
        reqwest = "0.12"
        serde.workspace = true

        [dependencies.backoff]
        version = "0.4"

        [dev-dependencies]
        criterion = "0.5"
      `,
    });
    expect(readProjectStack(root)).toEqual({ name: "embedder", stack: ["rust", "tokio", "reqwest", "serde", "backoff"], skipped: [] });
  });

  it("names the project by package.json before pyproject, Cargo.toml and go.mod, and lists every stack once", () => {
    const root = project({
      "package.json": JSON.stringify({ name: "web", dependencies: { tenacity: "1" } }),
      "pyproject.toml": '[project]\nname = "py"\ndependencies = ["tenacity"]\n',
      "go.mod": "module example.com/go-name\n",
      "Cargo.toml": '[package]\nname = "rust-name"\n',
    });
    expect(readProjectStack(root)).toEqual({ name: "web", stack: ["node", "python", "go", "rust", "tenacity"], skipped: [] });
    expect(readProjectStack(project({ "go.mod": "module example.com/go-name\n", "Cargo.toml": '[package]\nname = "rust-name"\n' })).name).toBe("rust-name");
  });

  it("keeps at most 40 names", () => {
    const dependencies = Object.fromEntries(Array.from({ length: 60 }, (_, index) => [`dependency-${index}`, "1"]));
    const { stack } = readProjectStack(project({ "package.json": JSON.stringify({ dependencies }) }));
    expect([stack.length, stack[0], stack[39]]).toEqual([40, "node", "dependency-38"]);
  });

  it("skips a manifest that is malformed, too large or not a file, saying so", () => {
    const root = project({ "package.json": "{ not json", "pyproject.toml": "x".repeat(MAX_MANIFEST_BYTES + 1) });
    mkdirSync(join(root, "Cargo.toml"));
    expect(readProjectStack(root)).toEqual({
      name: null,
      stack: ["node", "python", "rust"],
      skipped: [
        "package.json is not valid JSON; its name and dependencies skipped",
        `pyproject.toml is over ${MAX_MANIFEST_BYTES} bytes; its name and dependencies skipped`,
        "Cargo.toml cannot be read (is a directory); its name and dependencies skipped",
      ],
    });
  });

  it("gives nothing for a folder without manifests", () => {
    expect(readProjectStack(makeTempDir())).toEqual({ name: null, stack: [], skipped: [] });
  });
});
