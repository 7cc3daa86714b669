// The hook's second file: everything needed to work out an injection from the files, and to
// plan for a query (a start that works the injection out plans with it: no third file loaded).
export { planSessionStart, prepareSessionInjection, readFeedback } from "@iflow-memory/store";
