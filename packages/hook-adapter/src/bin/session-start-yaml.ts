// The YAML parser, required by the preparation's file (session-start-prepare.cjs) only to read a
// config file: most starts that prepare an injection know the config from the cache.
export * from "yaml";
