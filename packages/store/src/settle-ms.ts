/** Files changed this recently may change again within the file system's time granularity. */
export const SETTLE_MS = 2000;
