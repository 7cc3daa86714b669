// The hook's second file: everything needed to work out an injection from the files.
export { prepareSessionInjection } from "@iflow-memory/store";
