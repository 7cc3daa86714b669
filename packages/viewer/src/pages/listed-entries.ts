import type { Entry } from "@iflow-memory/parser";
import { injectionFingerprint, listEntries } from "@iflow-memory/store";
import type { PageContext } from "./layout.js";

const listings = new WeakMap<PageContext, { fingerprint: string; listing: Promise<{ entries: Entry[]; warnings: string[] }> }>();

/**
 * The store's `listEntries` of the viewed project and global store (every scope), read again only
 * when one of their files changed (the session-start cache's fingerprint): a page of a large bank
 * is not a re-parse of it.
 */
export function listedEntries(context: PageContext): Promise<{ entries: Entry[]; warnings: string[] }> {
  const fingerprint = injectionFingerprint({ projectRoot: context.projectRoot, globalStoreDir: context.globalStoreDir, salt: "viewer" });
  const cached = listings.get(context);
  if (cached !== undefined && fingerprint.settled && cached.fingerprint === fingerprint.value) return cached.listing;
  const listing = listEntries({ projectRoot: context.projectRoot, globalStoreDir: context.globalStoreDir, scope: "all" });
  // A file changed within the clock's granularity may change again unseen: not kept.
  if (fingerprint.settled) listings.set(context, { fingerprint: fingerprint.value, listing });
  else listings.delete(context);
  listing.catch(() => listings.delete(context));
  return listing;
}
