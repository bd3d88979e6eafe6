/**
 * Documents a bulk job opens only to ask about them (the import graph's definitions) are closed when
 * it is done: tsserver keeps every open file in memory and re-checks its project after each change,
 * and the 331 files one graph build left open made every later answer of that server slower. A
 * question that needs a document open — a callers walk opening the files outside the server's
 * project, any file an operation loads — pins it first, so a bulk job running beside it never
 * closes what the question relies on (the race that kept the graph from closing its files).
 * Keyed by server and root, not by session object: a cached session wraps the same server.
 */
import type { LspSession } from '../lsp/types.js';

interface Held {
  /** Bulk jobs holding a document they opened, by absolute path. */
  readonly transient: Map<string, number>;
  /** Documents a question needs open: never closed here. */
  readonly pinned: Set<string>;
}

const bySession = new Map<string, Held>();

function heldOf(session: LspSession): Held {
  const key = `${session.serverId}\0${session.root}`;
  let held = bySession.get(key);
  if (!held) bySession.set(key, (held = { transient: new Map(), pinned: new Set() }));
  return held;
}

/**
 * Runs `work` on `absPath` (which opens it through the session as it likes) and closes the document
 * after, if it was not open before and no question pinned it meanwhile. A document another bulk job
 * opened and still holds is closed by the last one done.
 */
export async function withTransientDocument<T>(session: LspSession, absPath: string, work: () => Promise<T>): Promise<T> {
  const held = heldOf(session);
  const holders = held.transient.get(absPath);
  const open = session.getDocument(absPath) !== undefined;
  // a pin on a document closed since (an edit closed it) is stale: the question that pinned it is answered
  if (!open) held.pinned.delete(absPath);
  const mine = holders !== undefined || !open;
  if (mine) held.transient.set(absPath, (holders ?? 0) + 1);
  try {
    return await work();
  } finally {
    if (mine) await release(session, held, absPath);
  }
}

async function release(session: LspSession, held: Held, absPath: string): Promise<void> {
  const left = (held.transient.get(absPath) ?? 1) - 1;
  if (left > 0) {
    held.transient.set(absPath, left);
    return;
  }
  held.transient.delete(absPath);
  // decided synchronously: a question that pins the file from here on finds it open or opens it again
  if (held.pinned.has(absPath) || session.getDocument(absPath) === undefined) return;
  await session.closeDocument(absPath);
}

/** A question needs the document open: no bulk job closes it from now on. */
export function pinDocument(session: LspSession, absPath: string): void {
  heldOf(session).pinned.add(absPath);
}

/** A bulk job holds the document open only for now: it closes it when done unless it is pinned. */
export function heldTransiently(session: LspSession, absPath: string): boolean {
  return heldOf(session).transient.has(absPath) && !heldOf(session).pinned.has(absPath);
}

/** Documents bulk jobs hold open right now (for tests and the bench). */
export function transientlyHeld(session: LspSession): number {
  return heldOf(session).transient.size;
}
