/**
 * One side of an edit's diagnostics delta ("before" or "after"): every file's diagnostics, each
 * reused instead when it was last computed for the server state there is now (delta-answers.ts).
 * A server that computes them when asked (tsserver's requests, pull) gets PHASE_CONCURRENCY files
 * at a time: it answers them one after another all the same (tsserver is one thread), but without a
 * round trip and a turn of lspgate's event loop between them. A server that publishes gets one at a
 * time, as before: intelephense published a caller's new version as clean while it had not yet
 * taken in the edited file changed beside it (a PHP caller's broken calls missed).
 */
import { documentText } from '../../lsp/documents.js';
import type { LspSession } from '../../lsp/types.js';
import type { ServiceCall } from '../call.js';
import { keepAnswers, keptAnswer, serverStamp } from './delta-answers.js';

/** Files of one side asked at once: below the session's own limit, so other callers still get a slot. */
export const PHASE_CONCURRENCY = 4;

export interface PhaseItem<F, A> {
  /** The path the server has the file under (a moved file's new path after the move). */
  at: string;
  /** The text given to the server; undefined: the disk's. */
  text: string | undefined;
  /** Asks the server; undefined when the file could not be answered (recorded by the caller). */
  work: () => Promise<A | undefined>;
  into: Map<F, A>;
}

/** `stampOf`: the file whose server project the stamp covers (the edited one). */
export async function askPhase<F, A extends { text: string; mode: string }>(
  call: ServiceCall,
  session: LspSession,
  stampOf: string,
  files: F[],
  item: (f: F) => PhaseItem<F, A>,
): Promise<void> {
  const first = await serverStamp(session, call.root, stampOf, call.signal);
  const asked: { abs: string; text: string; answer: A }[] = [];
  const items = files.map((f) => ({ f, ...item(f) }));
  // a stamp comes only from a server answering tsserver's requests
  const computed = first || session.hasCapability('diagnosticProvider');
  await pool(items, computed ? PHASE_CONCURRENCY : 1, async (it) => {
    const text = it.text ?? diskText(call, it.at);
    const reused = text === undefined ? undefined : keptAnswer<A>(session, call.root, first, it.at, text);
    if (reused) {
      it.into.set(it.f, reused);
      return;
    }
    const a = await it.work();
    if (!a) return;
    it.into.set(it.f, a);
    if (a.mode !== 'push') asked.push({ abs: it.at, text: a.text, answer: a });
  });
  if (first && asked.length) keepAnswers(session, call.root, first, await serverStamp(session, call.root, stampOf, call.signal), asked);
}

function diskText(call: ServiceCall, abs: string): string | undefined {
  try {
    return documentText(abs, undefined, call.env.limits.maxFileBytes);
  } catch {
    return undefined; // asked as usual: the ask reports the reason
  }
}

/** Runs `work` over `items`, `width` at a time; every started item ends before the first error is thrown. */
async function pool<T>(items: T[], width: number, work: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  const runners = Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) {
      try {
        await work(items[next++]!);
      } catch (e) {
        next = items.length; // no new item starts once one failed
        throw e;
      }
    }
  });
  const results = await Promise.allSettled(runners);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
