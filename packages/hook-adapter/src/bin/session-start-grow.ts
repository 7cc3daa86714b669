// The hook's file for a start after learnings were appended to one memory file: the parser and
// the ranker, to grow the injection cached before the edit by them (`extendSessionInjection`)
// and plan with it — not the preparation's readers and caches, loaded only where it cannot.
export { extendSessionInjection, planSessionStart, readFeedback } from "@iflow-memory/store";
