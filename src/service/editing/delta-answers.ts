/**
 * Diagnostics answers of an edit's delta, kept by the server state they were computed for, so that a
 * file is not type-checked again when nothing the server checks it against has changed since its last
 * answer. tsserver throws its checker away on every new version of any file of the project, and a
 * preview ends by giving the disk text back: without this, the next preview's "before" re-checks
 * every file of its delta from scratch (a 300-file package: seconds per large file).
 *
 * The state is a stamp: the server's generation and, for every file of the project that answers for
 * the edited file (adapters: projectFiles, the server's own list: sources, declaration files, libs)
 * and the language's manifests in the folders above it, the text the server has — the synced document's when
 * lspgate has it open, else the bytes on disk. An answer is reused only for the same file, text and
 * stamp, from a server answering on request or pull (a publish is never reused). It is kept only
 * when the stamp was the same before and after it was asked (nothing synced meanwhile) and no file
 * of the project changed on disk within the last STAMP_SETTLE_MS: a change the server's watcher has
 * not yet seen would be in the stamp but not in the answer.
 */
import fs from 'node:fs';
import path from 'node:path';

import { adapterFor } from '../../adapters/index.js';
import { profileOf } from '../../adapters/languages.js';
import type { LspSession } from '../../lsp/types.js';
import { sha256 } from '../../util/hash.js';

/** A disk change younger than this may not have reached the server yet. */
export const STAMP_SETTLE_MS = 5000;
/** Answers kept in all, and the text they hold (each keeps the file's text for the line map); the oldest is forgotten first. */
const MAX_ANSWERS = 512;
const MAX_ANSWER_CHARS = 64 << 20;
/** Disk hashes remembered by file identity (inode, size, times); the oldest is forgotten first. */
const MAX_DISK_HASHES = 50_000;

export interface Stamp {
  key: string;
  files: ReadonlySet<string>;
  /** No file of the project changed on disk within STAMP_SETTLE_MS. */
  settled: boolean;
}

interface Kept<A> {
  textHash: string;
  chars: number;
  answer: A;
}

/** By workspace root, server, file and stamp (a call's session object may be a wrapper made for the call). */
const kept = new Map<string, Kept<unknown>>();
let keptChars = 0;
const diskHashes = new Map<string, { id: string; hash: string; changedAt: number }>();

/** The stamp of the server's state for the project of `abs`; undefined when the server cannot list its project. */
export async function serverStamp(session: LspSession, root: string, abs: string, signal?: AbortSignal): Promise<Stamp | undefined> {
  const list = adapterFor(session.entry.adapter).projectFiles;
  const files = list ? await list(session, abs, signal).catch(() => undefined) : undefined;
  if (!files) return undefined;
  const now = Date.now();
  let settled = true;
  const lines: string[] = [`${session.serverId}\0${session.generation}`];
  for (const f of [...files, ...configFiles(root, abs)].sort()) {
    const doc = session.getDocument(f);
    if (doc) {
      lines.push(`${f}\0${doc.hash}`);
      continue;
    }
    const disk = diskHash(f);
    if (now - disk.changedAt < STAMP_SETTLE_MS) settled = false;
    lines.push(`${f}\0${disk.hash}`);
  }
  return { key: sha256(lines.join('\n')), files, settled };
}

/** The kept answer for `abs` with this text at this stamp. */
export function keptAnswer<A>(session: LspSession, root: string, stamp: Stamp | undefined, abs: string, text: string): A | undefined {
  if (!stamp || !stamp.files.has(abs)) return undefined;
  const k = kept.get(`${root}\0${session.serverId}\0${abs}\0${stamp.key}`);
  return k && k.textHash === sha256(text) ? (k.answer as A) : undefined;
}

/** Keeps answers asked between two equal, settled stamps. */
export function keepAnswers<A>(
  session: LspSession,
  root: string,
  from: Stamp | undefined,
  to: Stamp | undefined,
  answers: { abs: string; text: string; answer: A }[],
): void {
  if (!from || !to || from.key !== to.key || !from.settled || !to.settled) return;
  for (const a of answers) {
    if (!from.files.has(a.abs)) continue;
    // a file has one answer per server state: a preview's "before" and "after" are both kept
    const key = `${root}\0${session.serverId}\0${a.abs}\0${from.key}`;
    forget(key);
    kept.set(key, { textHash: sha256(a.text), chars: a.text.length, answer: a.answer });
    keptChars += a.text.length;
    while (kept.size > MAX_ANSWERS || keptChars > MAX_ANSWER_CHARS) forget(kept.keys().next().value!);
  }
}

function forget(key: string): void {
  const k = kept.get(key);
  if (!k) return;
  keptChars -= k.chars;
  kept.delete(key);
}

/** The language's manifests (TypeScript: package.json, tsconfig.json) from the file's folder up to the root: compiler options live there. */
function configFiles(root: string, abs: string): string[] {
  const names = profileOf(abs)?.project.manifests ?? [];
  const out: string[] = [];
  for (let dir = path.dirname(abs); ; dir = path.dirname(dir)) {
    for (const n of names) out.push(path.join(dir, n));
    if (dir === root || !dir.startsWith(root + path.sep) || path.dirname(dir) === dir) break;
  }
  return out;
}

/** The file's content hash ("missing" when absent), read again only when its inode, size or times changed. */
function diskHash(abs: string): { hash: string; changedAt: number } {
  let st: fs.Stats;
  try {
    st = fs.statSync(abs);
  } catch {
    return { hash: 'missing', changedAt: 0 };
  }
  const id = `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  const known = diskHashes.get(abs);
  if (known?.id === id) return known;
  let hash: string;
  try {
    hash = sha256(fs.readFileSync(abs));
  } catch {
    hash = `unreadable:${id}`;
  }
  const entry = { id, hash, changedAt: Math.max(st.mtimeMs, st.ctimeMs) };
  diskHashes.delete(abs);
  diskHashes.set(abs, entry);
  if (diskHashes.size > MAX_DISK_HASHES) diskHashes.delete(diskHashes.keys().next().value!);
  return entry;
}
