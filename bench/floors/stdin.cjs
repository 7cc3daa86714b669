// Floor: a hook that reads its stdin JSON and does nothing else (see read-stdin.cjs).
require("./read-stdin.cjs")(() => undefined);
