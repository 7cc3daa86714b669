// What inject loads to tell whether an output saved before learnings were appended still holds
// (dist/inject-grow.cjs): the parser, the redaction and today's order, without the rest of the store.
export { growInjection } from "@iflow-memory/store";
