/**
 * What `.raw`, `.servers` and symbol completion need from the servers, for one gateway: the REPL's
 * own (in-process) or, in the daemon, one client's view. Only sessions at or under a root the
 * gateway holds (its default root and the workspaces it opened) are reachable: through the daemon,
 * a client reaches the sessions of its own workspaces, never another client's.
 */
import path from 'node:path';

import { LspgateError } from '../../errors/errors.js';
import { type Gateway, workspaceId } from '../../gateway/gateway.js';
import type { LspSession, SessionInfo } from '../../lsp/types.js';
import { scopeOf } from '../../service/navigation/resolution-policy.js';
import { resolveInWorkspace } from '../../util/paths.js';

export interface RawRequest {
  server: string;
  method: string;
  params: unknown;
  /** A workspace this gateway holds (id or root); default: its default root. */
  workspace?: string | undefined;
}

export interface RawAnswer {
  result: unknown;
  server: string;
  /** The root of the session that answered. */
  root: string;
  ms: number;
}

export interface ServersView {
  servers: { id: string; languages: string[]; extensions: string[] }[];
  sessions: SessionInfo[];
}

/** The roots this gateway holds: its default root and every workspace it opened. */
export function heldRoots(gateway: Gateway): string[] {
  return [...new Set([gateway.defaultRoot, ...gateway.workspaces().map((w) => w.root)])];
}

export function isUnder(p: string, roots: readonly string[]): boolean {
  return roots.some((r) => p === r || p.startsWith(r.endsWith(path.sep) ? r : r + path.sep));
}

/** `opts.confine`: a `file:` textDocument URI must lie in the chosen root too (the daemon's clients). */
export async function rawRequest(gateway: Gateway, req: RawRequest, opts: { confine?: boolean } = {}): Promise<RawAnswer> {
  const root = heldRoot(gateway, req.workspace);
  const session = await sessionOf(gateway, req.server, root);
  const params = await openNamedDocument(root, session, req.params, opts.confine ?? false);
  const started = performance.now();
  const result = await session.requestRaw(req.method, params);
  return { result, server: req.server, root: session.root, ms: performance.now() - started };
}

export function serversView(gateway: Gateway, onlyHeld: boolean): ServersView {
  const roots = heldRoots(gateway);
  return {
    servers: gateway.context.servers.map((s) => ({ id: s.id, languages: [...s.languages], extensions: [...s.extensions] })),
    sessions: gateway.context.broker.info().filter((i) => !onlyHeld || isUnder(i.root, roots)),
  };
}

/**
 * Names of the default workspace's module-level symbols and members, once its catalog has been built,
 * or with `stored` once a finished build is stored (its warm build starts); never a cold build.
 */
export async function catalogNames(gateway: Gateway, opts: { stored?: boolean } = {}): Promise<string[]> {
  const ws = await gateway.workspaceFor(undefined);
  const st = ws.catalog.status();
  // `stored`: a catalog a finished build left in the database answers while its warm build runs
  const answers = st.state === 'ready' || st.state === 'partial' || (opts.stored === true && ws.catalog.hasStored?.() === true);
  if (!answers) return [];
  const all = await ws.catalog.all({ early: true });
  const byId = new Map(all.map((s) => [s.symbol_id, s]));
  const set = new Set<string>();
  for (const s of all) {
    // a variable inside a function body or a parameter is no name anyone types from outside it
    if (scopeOf(s, (id) => byId.get(id)) === 'local') continue;
    set.add(s.name);
    set.add(s.qualified_name);
    // `.outline src/ro` + Tab: a file's path is a word the commands take too
    set.add(s.file);
  }
  return [...set].sort();
}

/** The default root, or a workspace this gateway holds by id or path; else WORKSPACE_NOT_FOUND. */
function heldRoot(gateway: Gateway, workspace: string | undefined): string {
  if (workspace === undefined || workspace === '') return gateway.defaultRoot;
  const abs = path.resolve(gateway.defaultRoot, workspace);
  if (workspace === workspaceId(gateway.defaultRoot) || abs === gateway.defaultRoot) return gateway.defaultRoot;
  const ws = gateway.workspaces().find((w) => w.id === workspace || w.root === abs);
  if (ws) return ws.root;
  throw new LspgateError('WORKSPACE_NOT_FOUND', `no workspace ${workspace.slice(0, 200)} held by this client; open it with index_folder`, {
    workspaces: heldRoots(gateway),
  });
}

/** An existing session of that server at or under `root`, else one started at `root`. */
async function sessionOf(gateway: Gateway, serverId: string, root: string): Promise<LspSession> {
  const { broker, servers } = gateway.context;
  if (!servers.some((s) => s.id === serverId)) {
    throw new LspgateError('INVALID_INPUT', `no configured server ${serverId.slice(0, 100)}`, { servers: servers.map((s) => s.id) });
  }
  const existing = broker.existing().filter((s) => s.serverId === serverId && isUnder(s.root, [root]));
  const exact = existing.find((s) => s.root === root) ?? existing[0];
  if (exact) return exact;
  const session = await broker.session(serverId, root);
  await session.waitReady();
  return session;
}

/**
 * Convenience for people: `"textDocument": {"uri": "src/app.ts"}` names a workspace file; it is
 * resolved like every caller path, opened (didOpen) so servers like tsserver have a project, and
 * replaced by its file URI. A real `file:` URI is passed through untouched (in the daemon: only
 * one inside the root).
 */
async function openNamedDocument(root: string, session: LspSession, params: unknown, confine: boolean): Promise<unknown> {
  const td = (params as { textDocument?: { uri?: unknown } } | null)?.textDocument;
  if (!td || typeof td.uri !== 'string') return params;
  if (/^[a-z][a-z0-9+.-]*:/i.test(td.uri)) {
    if (confine && /^file:/i.test(td.uri)) resolveInWorkspace(root, td.uri, { mustExist: false });
    return params;
  }
  const abs = resolveInWorkspace(root, td.uri, { expect: 'file' });
  const doc = await session.syncDocument(abs);
  return { ...(params as object), textDocument: { ...td, uri: doc.uri } };
}
