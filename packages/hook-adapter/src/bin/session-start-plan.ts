// The hook's file for a new plan: the ranker, loaded by a session start that ranks for signals
// it has not planned for yet (a warm start reuses its plan, or injects today's, without it).
export { planSessionStart, readFeedback } from "@iflow-memory/store";
