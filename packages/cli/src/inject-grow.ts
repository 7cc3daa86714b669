// What inject loads to tell an output saved before learnings were appended from one of today
// (dist/inject-grow.cjs): the parser, the redaction and today's order, without the rest of the store.
export { growInjection } from "@iflow-memory/store";
