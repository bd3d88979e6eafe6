/**
 * A server answers for the files its project holds and for the files open in it: pyright with a
 * config that includes only `src` sees tests/ and examples/ only while they are open (its callers
 * of a helper called from tests: none; its rename: the declaration's file only), tsserver a test
 * file its tsconfig leaves out, gopls a file its build constraints exclude. Before a question whose
 * answer lies in other files (who calls this, where is this name used), the files the server
 * serves that spell the name are opened, so that it sees them; what it then answers is its own
 * resolution, never a name match.
 */
import type { LspSession } from '../../lsp/types.js';
import { isSecretPath } from '../../util/paths.js';
import type { ServiceCall } from '../call.js';
import { diskText } from '../disk-texts.js';

/** Files opened for one question at most (each costs the server a parse). */
const MAX_OPENED = 50;

/**
 * The files one question opens, over all the names it asks about: a callers walk asks at every
 * level (a caller's own callers may live in a file that never spells the root's name), so the
 * texts are read once per question and the budget is shared.
 */
export class Mentions {
  private texts: Map<string, string> | undefined;
  /** Files this question opened (or is opening), by absolute path. */
  private readonly opening = new Map<string, Promise<unknown>>();
  private readonly names = new Set<string>();

  constructor(
    private readonly call: ServiceCall,
    private readonly session: LspSession,
  ) {}

  /** Opens the not-yet-open files of the session's server that contain `name` as a word; returns how many. */
  async open(name: string): Promise<number> {
    if (!/^[\w$]+$/.test(name) || this.names.has(name)) return 0;
    this.names.add(name);
    const word = new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`);
    const todo: string[] = [];
    const pending: Promise<unknown>[] = [];
    for (const [abs, text] of this.candidates()) {
      if (!text.includes(name) || !word.test(text)) continue;
      const opening = this.opening.get(abs);
      if (opening) pending.push(opening); // another name of this question is opening it: wait for that
      else if (!this.session.getDocument(abs)) todo.push(abs);
    }
    todo.sort();
    const room = Math.max(0, MAX_OPENED - this.opening.size);
    for (const abs of todo.slice(0, room)) {
      const p = this.session.syncDocument(abs);
      this.opening.set(abs, p);
      pending.push(p);
    }
    await Promise.all(pending);
    if (todo.length > room) {
      this.call.meta.warn(`${todo.length} files mention \`${name}\` and were not open in ${this.session.serverId}; ${room ? `the first ${room}` : 'none'} were opened (at most ${MAX_OPENED} per question) so that it sees them, the others may be missing from the answer`);
    }
    return Math.min(todo.length, room);
  }

  /** The texts of the files the session's server serves (read once per question). */
  private candidates(): Map<string, string> {
    if (this.texts) return this.texts;
    this.texts = new Map();
    for (const [rel, entry] of this.call.workspace.catalog.files()) {
      if (entry.server !== this.session.serverId) continue;
      const abs = this.call.resolvePath(rel, { mustExist: false });
      if (isSecretPath(abs)) continue;
      const text = diskText(abs);
      if (text !== undefined) this.texts.set(abs, text);
    }
    return this.texts;
  }
}

/** One name's files, for a question about one name (a rename). */
export function openMentioning(call: ServiceCall, session: LspSession, name: string): Promise<number> {
  return new Mentions(call, session).open(name);
}
