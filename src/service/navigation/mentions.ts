/**
 * A server answers for the files its project holds and for the files open in it: pyright with a
 * config that includes only `src` sees tests/ and examples/ only while they are open (its callers
 * of a helper called from tests: none; its rename: the declaration's file only), tsserver a test
 * file its tsconfig leaves out, gopls a file its build constraints exclude. Before a question whose
 * answer lies in other files (who calls this, where is this name used), the files the server
 * serves that spell the name are opened, so that it sees them; what it then answers is its own
 * resolution, never a name match.
 */
import type { CatalogSymbol } from '../../core/catalog.js';
import type { LspSession } from '../../lsp/types.js';
import { isSecretPath } from '../../util/paths.js';
import type { ServiceCall } from '../call.js';
import { diskText } from '../disk-texts.js';
import { heldTransiently, pinDocument } from '../held-documents.js';
import { maskCommentsAndStrings } from './calls-fallback.js';

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
  /** Each name's opening, asked once per question. */
  private readonly byName = new Map<string, Promise<number>>();
  private markFirst: (p: Promise<number>) => void = () => undefined;
  private readonly first = new Promise<number>((resolve) => {
    this.markFirst = (p) => {
      this.markFirst = () => undefined;
      resolve(
        p.then(
          () => 0,
          () => 0,
        ),
      );
    };
  });
  /** Candidate texts with comments and strings blanked, made once per question. */
  private readonly masked = new Map<string, string>();
  /** The catalog's symbols of each candidate file. */
  private readonly declarations = new Map<string, readonly CatalogSymbol[]>();

  constructor(
    private readonly call: ServiceCall,
    private readonly session: LspSession,
  ) {}

  /**
   * Opens the not-yet-open files of the session's server that contain `name` as a word, but those of
   * `project` (files the server's project holds: it sees them unopened); returns how many. A second
   * ask of the same name waits for the first one's files.
   */
  open(name: string, project?: ReadonlySet<string>): Promise<number> {
    const asked = this.byName.get(name);
    if (asked) return asked.then(() => 0);
    const p = this.openOnce(name, project);
    this.byName.set(name, p);
    this.markFirst(p);
    return p;
  }

  /**
   * Settles once the first name asked (a callers walk's root) has its files open, or `otherwise`
   * settled: a question asking the server about that name beside the walk asks after the files are
   * open, else its answer misses what they hold (analyze_impact's references: 0 instead of 104).
   */
  async firstOpened(otherwise: Promise<unknown>): Promise<void> {
    await Promise.race([this.first, otherwise]).catch(() => undefined);
  }

  /** No name will be asked (a walk without a call hierarchy): firstOpened need not wait. */
  none(): void {
    this.markFirst(Promise.resolve(0));
  }

  private async openOnce(name: string, project?: ReadonlySet<string>): Promise<number> {
    if (!/^[\w$]+$/.test(name)) return 0;
    const word = new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`);
    const todo: string[] = [];
    const pending: Promise<unknown>[] = [];
    for (const [abs, text] of this.candidates()) {
      if (project?.has(abs) || !text.includes(name) || !word.test(text)) continue;
      const opening = this.opening.get(abs);
      if (opening)
        pending.push(opening); // another name of this question is opening it: wait for that
      // open only while a bulk job holds it: pinned, it stays open for good, so it counts as opened
      else if (!this.session.getDocument(abs) || heldTransiently(this.session, abs)) todo.push(abs);
      else {
        // open already (a former question's): the question relies on it staying open
        pinDocument(this.session, abs);
        pending.push(this.session.syncDocument(abs, undefined, { widens: true }));
      }
    }
    todo.sort();
    const room = Math.max(0, MAX_OPENED - this.opening.size);
    for (const abs of todo.slice(0, room)) {
      pinDocument(this.session, abs);
      const p = this.session.syncDocument(abs, undefined, { widens: true });
      this.opening.set(abs, p);
      pending.push(p);
    }
    await Promise.all(pending);
    if (todo.length > room) {
      // a cut like any other: the answer may miss what the unopened files hold, and says so first
      this.call.meta.truncate();
      this.call.meta.limit({
        limit: 'files_opened',
        value: MAX_OPENED,
        detail: `${todo.length} files mention \`${name}\` and were not open in ${this.session.serverId}; ${room ? `the first ${room}` : 'none'} were opened (at most ${MAX_OPENED} per question), what the others hold may be missing; search_text for it lists every file that spells it`,
      });
    }
    return Math.min(todo.length, room);
  }

  /**
   * The files that spell `name(` (a call, or a declaration, of that name), with the 0-based lines
   * where they do: a textual upper bound on the call sites the server may know of. The files of
   * `project` are left out (the server's hierarchy covers them).
   */
  callSpellings(name: string, project?: ReadonlySet<string>): Map<string, number[]> {
    const out = new Map<string, number[]>();
    if (!/^[\w$]+$/.test(name)) return out;
    const call = new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}\\s*\\(`, 'g');
    for (const [abs, text] of this.candidates()) {
      if (project?.has(abs) || !text.includes(name)) continue;
      // comments and strings masked; a line where the catalog has a declaration of that name is no call
      const declared = new Set(
        this.declarations
          .get(abs)
          ?.filter((s) => s.name === name)
          .map((s) => s.selection_line - 1),
      );
      let masked = this.masked.get(abs);
      if (masked === undefined) this.masked.set(abs, (masked = maskCommentsAndStrings(text)));
      const lines = [...masked.matchAll(call)].map((m) => lineOf(text, m.index)).filter((l) => !declared.has(l));
      if (lines.length) out.set(abs, lines);
    }
    return out;
  }

  /** The texts of the files the session's server serves (read once per question). */
  private candidates(): Map<string, string> {
    if (this.texts) return this.texts;
    this.texts = new Map();
    for (const [rel, entry] of this.call.workspace.catalog.files()) {
      const abs = this.call.resolvePath(rel, { mustExist: false });
      if (!servedBy(this.call, abs, this.session)) continue;
      if (isSecretPath(abs)) continue;
      const text = diskText(abs);
      if (text === undefined) continue;
      this.texts.set(abs, text);
      this.declarations.set(abs, entry.symbols);
    }
    return this.texts;
  }
}

/**
 * Whether the session's server serves the file (its route: the server and project root it would be
 * asked at). Catalog entries do not say: a file with a grammar is cataloged from its parse tree.
 */
export function servedBy(call: ServiceCall, abs: string, session: LspSession): boolean {
  const route = call.env.broker.route(abs, call.root);
  return route !== undefined && route.entry.id === session.serverId && route.root === session.root;
}

function lineOf(text: string, offset: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** One name's files, for a question about one name (a rename). */
export function openMentioning(call: ServiceCall, session: LspSession, name: string): Promise<number> {
  return new Mentions(call, session).open(name);
}
