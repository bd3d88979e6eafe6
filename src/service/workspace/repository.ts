/**
 * Repository intelligence: opening workspaces (index_folder, index_repo), listing, invalidating
 * and refreshing them, their structure (repo outline, file tree) and drift. The catalog does the
 * work; this is where operations reach it, like every other question.
 */
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';

import { fileTree, repoOutlineAt, type TreeNode } from '../../catalog/outline.js';
import type { CallMeta } from '../../core/call-meta.js';
import type { Catalog, CatalogStatus } from '../../core/catalog.js';
import type { GatewayHandle, Workspace } from '../../core/workspace.js';
import { LspgateError } from '../../errors/errors.js';
import { resolveInWorkspace, toRelative } from '../../util/paths.js';
import type { ServiceCall } from '../call.js';
import { cloneRepo, validateRepoInput } from './repo-clone.js';
import { classifyRepoUrl } from './repo-url.js';

export type { TreeNode };

export interface IndexResult {
  workspace: string;
  root: string;
  state: CatalogStatus['state'];
  empty_reason?: string;
  files: number;
  symbols: number;
  languages: Record<string, number>;
  skipped: Record<string, number>;
  errors: CatalogStatus['errors'];
  duration_ms: number;
  git_head?: string;
  tiers?: CatalogStatus['tiers'];
}

export interface IndexOptions {
  extraIgnore?: string[] | undefined;
  followSymlinks?: boolean | undefined;
}

export type IndexProgress = (p: { progress: number; total?: number; message?: string }) => void;

function languagesOf(cat: Catalog): Record<string, number> {
  const out: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const e of cat.files().values()) out[e.language] = (out[e.language] ?? 0) + 1;
  return out;
}

/**
 * The catalog's state as `_meta` sees it: limits hit, partial when files failed (with how many and
 * why). An early answer (`early`: taken as soon as the syntax pass was done) says `syntax` when any
 * of the files it answered from (`files`), or for an answer over the whole catalog (`wide`) any
 * cataloged file, is of a language no server handles here: its symbols are all there is.
 */
export function reportCatalog(cat: Catalog, meta: CallMeta, early?: { files?: Iterable<string>; wide?: boolean }): void {
  for (const hit of cat.limitsHit) meta.limit(hit);
  const st = cat.status();
  if (early && reportTier(cat, st, meta, early)) return;
  if (st.state === 'building') {
    meta.setIndexState('indexing');
    // a warm start: the stored catalog answers while the walk runs; say what that leaves out
    if (cat.hasStored?.() && st.indexed_at)
      meta.warn(
        `answered from the catalog stored at ${st.indexed_at} while the walk now running compares it with the disk: ` +
          `a file added, removed or changed since then may not show yet (refresh waits for the walk)`,
      );
  } else if (st.state === 'partial') {
    meta.setIndexState('partial');
    if (st.errors.length) meta.warn(partialWarning(st.errors));
  }
}

function reportTier(cat: Catalog, st: CatalogStatus, meta: CallMeta, early: { files?: Iterable<string>; wide?: boolean }): boolean {
  const tiers = st.tiers;
  if (!tiers) return false;
  const serverless = Object.values(tiers.syntax_only).reduce((a, b) => a + b, 0);
  if (serverless === 0) return false;
  const answered = [...(early.files ?? [])].filter((f) => cat.serverless(f) !== undefined);
  if (answered.length === 0 && !early.wide) return false;
  meta.setIndexState('syntax');
  const why = Object.entries(tiers.syntax_only)
    .map(([code, n]) => `${code} ${n}`)
    .join(', ');
  meta.warn(
    `${serverless} file(s) have no language server here (${why}): their symbols come from syntax trees; semantic operations on them answer SERVER_NOT_INSTALLED`,
  );
  return true;
}

/** `3 file(s) could not be cataloged (SERVER_CRASHED 2, TIMEOUT 1): a.ts (TIMEOUT), ...; ...` — the first files named, not only counted. */
export function partialWarning(errors: CatalogStatus['errors']): string {
  const byCode = new Map<string, number>();
  for (const e of errors) byCode.set(e.code, (byCode.get(e.code) ?? 0) + 1);
  const codes = [...byCode]
    .sort((a, b) => b[1] - a[1])
    .map(([c, n]) => `${c} ${n}`)
    .join(', ');
  const named = errors.slice(0, 5).map((e) => `${e.file} (${e.code})`);
  const more = errors.length > named.length ? `, and ${errors.length - named.length} more` : '';
  return `${errors.length} file(s) could not be cataloged (${codes}): ${named.join(', ')}${more}; their symbols are missing from this answer; index_folder lists them, refresh retries them`;
}

export async function indexWorkspace(ws: Workspace, call: ServiceCall, opts: IndexOptions, progress?: IndexProgress, gitHead?: string): Promise<IndexResult> {
  const started = performance.now();
  const cat = ws.catalog;
  cat.configure({
    ...(opts.extraIgnore ? { extraIgnore: opts.extraIgnore } : {}),
    ...(opts.followSymlinks !== undefined ? { followSymlinks: opts.followSymlinks } : {}),
  });
  const status = await cat.build({
    signal: call.signal,
    onProgress: (done, total) => progress?.({ progress: done, total, message: `cataloged ${done}/${total} files` }),
  });
  reportCatalog(cat, call.meta);
  const head = gitHead ?? status.git_head;
  return {
    workspace: ws.id,
    root: ws.root,
    state: status.state,
    ...(status.empty_reason ? { empty_reason: status.empty_reason } : {}),
    files: status.files,
    symbols: status.symbols,
    languages: languagesOf(cat),
    skipped: cat.skipped as Record<string, number>,
    errors: status.errors,
    duration_ms: Math.round(performance.now() - started),
    ...(head ? { git_head: head } : {}),
    ...(status.tiers ? { tiers: status.tiers } : {}),
  };
}

/** index_folder: the folder must exist and be a directory; it opens as a workspace. */
export async function openFolder(gateway: GatewayHandle, folder: string): Promise<Workspace> {
  if (folder.includes('\0')) throw new LspgateError('INVALID_INPUT', 'path contains a NUL byte');
  const abs = path.resolve(gateway.defaultRoot, folder);
  let isDir: boolean;
  try {
    isDir = statSync(abs).isDirectory();
  } catch {
    throw new LspgateError('FILE_NOT_FOUND', `no such folder: ${folder}`, { path: folder });
  }
  if (!isDir) throw new LspgateError('INVALID_INPUT', `not a folder: ${folder}`);
  gateway.assertAllowedRoot(realpathSync(abs), folder);
  return gateway.openWorkspace(abs);
}

/**
 * index_repo: a clone under the cache directory, opened as a workspace. A local source must itself
 * be inside an allowed root (a clone of /etc would open it all the same).
 */
export async function cloneAndOpen(
  gateway: GatewayHandle,
  call: ServiceCall,
  url: string,
  ref: string | undefined,
): Promise<{ ws: Workspace; dir: string; head: string }> {
  validateRepoInput(url, ref);
  const source = classifyRepoUrl(url, gateway.defaultRoot);
  if (source.kind === 'local') {
    let real: string;
    try {
      real = realpathSync(source.path);
    } catch {
      throw new LspgateError('FILE_NOT_FOUND', `no such repository: ${url}`, { url });
    }
    gateway.assertAllowedRoot(real, url);
  }
  const { dir, head } = await cloneRepo(call.env.cacheDir, url, ref, call.signal);
  return { ws: await gateway.openWorkspace(dir), dir, head };
}

export function listRepos(gateway: GatewayHandle) {
  return gateway.workspaces().map((ws) => {
    const st = ws.catalog.status();
    return {
      workspace: ws.id,
      root: ws.root,
      state: st.state,
      ...(st.empty_reason ? { empty_reason: st.empty_reason } : {}),
      files: st.files,
      symbols: st.symbols,
      languages: languagesOf(ws.catalog),
      ...(st.indexed_at ? { indexed_at: st.indexed_at } : {}),
      ...(st.git_head ? { git_head: st.git_head } : {}),
      index_version: st.index_version,
      failed_files: st.errors.length,
      ...(st.errors.length ? { failed: failedSummary(st.errors) } : {}),
      ...(st.tiers ? { tiers: st.tiers } : {}),
    };
  });
}

/** Why files failed, for a listing: the same words as the partial warning (`TIMEOUT 1, LIMIT_EXCEEDED 2: a.java, b.java`). */
function failedSummary(errors: CatalogStatus['errors']): string {
  const byCode = new Map<string, number>();
  for (const e of errors) byCode.set(e.code, (byCode.get(e.code) ?? 0) + 1);
  const names = errors.slice(0, 5).map((e) => e.file);
  return `${[...byCode].map(([c, n]) => `${c} ${n}`).join(', ')}: ${names.join(', ')}${errors.length > names.length ? `, ... (${errors.length - names.length} more; index_folder lists them)` : ''}`;
}

export async function refreshWorkspace(call: ServiceCall, paths: string[] | undefined) {
  const started = performance.now();
  const cat = call.workspace.catalog;
  const r = await cat.refresh(paths);
  reportCatalog(cat, call.meta);
  return { refreshed: r.refreshed, duration_ms: Math.round(performance.now() - started), errors: r.errors };
}

export async function repoOutlineOf(call: ServiceCall, depth: number) {
  const cat = call.workspace.catalog;
  await cat.ready({ early: true });
  reportCatalog(cat, call.meta, { wide: true });
  for (const [rel, e] of cat.files()) call.meta.addSourceFile(path.join(call.root, rel), e.size);
  return repoOutlineAt(cat.files(), cat.version, depth, cat.symbolTally?.());
}

export async function fileTreeOf(call: ServiceCall, pathPrefix: string | undefined, depth: number): Promise<{ tree: TreeNode }> {
  const cat = call.workspace.catalog;
  let prefix = '';
  if (pathPrefix && pathPrefix.replace(/^\.?\/*/, '') !== '') {
    prefix = toRelative(call.root, resolveInWorkspace(call.root, pathPrefix, { mustExist: false, refuseSecrets: false }));
  }
  await cat.ready({ early: true });
  reportCatalog(cat, call.meta, { wide: true });
  for (const [rel, e] of cat.files()) if (!prefix || rel.startsWith(prefix + '/')) call.meta.addSourceFile(path.join(call.root, rel), e.size);
  return { tree: fileTree(cat.files(), prefix, depth) };
}

export interface DriftDetail {
  element: string;
  change_type: 'added' | 'removed' | 'modified';
  file: string;
  symbol_id: string;
}

/** `src/a.ts::Router.serve#method~2` → file `src/a.ts`, element `Router.serve`. */
function driftDetail(id: string, change_type: DriftDetail['change_type']): DriftDetail {
  const at = id.indexOf('::');
  const file = at >= 0 ? id.slice(0, at) : id;
  const rest = at >= 0 ? id.slice(at + 2) : id;
  const hash = rest.lastIndexOf('#');
  return { element: hash >= 0 ? rest.slice(0, hash) : rest, change_type, file, symbol_id: id };
}

export async function driftOf(call: ServiceCall, reset: boolean) {
  const cat = call.workspace.catalog;
  const d = await cat.drift(reset);
  reportCatalog(cat, call.meta);
  const details = [
    ...d.added.map((id) => driftDetail(id, 'added')),
    ...d.removed.map((id) => driftDetail(id, 'removed')),
    ...d.modified.map((id) => driftDetail(id, 'modified')),
  ];
  const drift_report = { added_elements: d.added.length, removed_elements: d.removed.length, modified_elements: d.modified.length, details };
  return { ...(d.since ? { since: d.since } : {}), added: d.added, removed: d.removed, modified: d.modified, success: true, drift_report };
}
