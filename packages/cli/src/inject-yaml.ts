// The YAML parser, required by inject.cjs only to read a config file (dist/inject-yaml.cjs).
export * from "yaml";
