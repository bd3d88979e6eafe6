/**
 * A server answers for the files its project holds and for the files open in it: pyright with a
 * config that includes only `src` sees tests/ and examples/ only while they are open (its callers
 * of a helper called from tests: none; its rename: the declaration's file only), tsserver a test
 * file its tsconfig leaves out, gopls a file its build constraints exclude. Before a question whose
 * answer lies in other files (who calls this, where is this name used), the files the server
 * serves that spell the name are opened, so that it sees them; what it then answers is its own
 * resolution, never a name match.
 */
import { readFileSync } from 'node:fs';
import type { LspSession } from '../../lsp/types.js';
import { isSecretPath } from '../../util/paths.js';
import type { ServiceCall } from '../call.js';

/** Files opened for one question at most (each costs the server a parse). */
const MAX_OPENED = 50;

/** Opens the not-yet-open files of the session's server that contain `name` as a word; returns how many. */
export async function openMentioning(call: ServiceCall, session: LspSession, name: string): Promise<number> {
  if (!/^[\w$]+$/.test(name)) return 0;
  const word = new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`);
  const todo: string[] = [];
  for (const [rel, entry] of call.workspace.catalog.files()) {
    if (entry.server !== session.serverId) continue;
    const abs = call.resolvePath(rel, { mustExist: false });
    if (isSecretPath(abs) || session.getDocument(abs)) continue;
    let text: string;
    try {
      text = readFileSync(abs, 'utf8');
    } catch {
      continue;
    }
    if (text.includes(name) && word.test(text)) todo.push(abs);
  }
  todo.sort();
  for (const abs of todo.slice(0, MAX_OPENED)) await session.syncDocument(abs);
  if (todo.length > MAX_OPENED) call.meta.warn(`${todo.length} files mention \`${name}\` and were not open in ${session.serverId}; the first ${MAX_OPENED} were opened so that it sees them, the others may be missing from the answer`);
  return Math.min(todo.length, MAX_OPENED);
}
