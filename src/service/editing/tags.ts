/**
 * tag_elements (its input schema: operations/defs/tags.ts): the cataloged functions, methods, classes, interfaces and types
 * of a file or directory get a tag comment (tag-plan.ts). A dry run (the default) only reports.
 * A write goes through the same path as rename's apply (edit-apply.ts: content hashes checked,
 * atomic writes, servers and catalog re-synced), after a backup of every file it changes under
 * lspgate's cache directory. Paths are contained in the workspace (symlinks resolved first), and
 * secret files are never written.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { globMatcher } from '../../catalog/glob.js';
import type { CatalogSymbol } from '../../core/catalog.js';
import { LspgateError } from '../../errors/errors.js';
import { sha256 } from '../../util/hash.js';
import { isSecretPath, toRelative } from '../../util/paths.js';
import type { ServiceCall } from '../call.js';
import { decorationOf } from '../structure-index.js';
import { applyFileEdits } from './edit-apply.js';
import { elementType, isPrivate, planFile, type PlannedTag, type TagElement } from './tag-plan.js';
import { editTargetOfPath, type FileEdit, unifiedDiff } from './workspace-edit.js';

export interface TagInput {
  path: string;
  dry_run?: boolean | undefined;
  force?: boolean | undefined;
  update_lineno?: boolean | undefined;
  include_private?: boolean | undefined;
  lang?: string | undefined;
  exclude?: string | undefined;
}

export interface TaggedFile {
  file: string;
  content_hash: string;
  new_hash?: string;
  tags: number;
  diff: string;
}

export interface TagResult {
  dry_run: boolean;
  path: string;
  elements: (PlannedTag & { file: string })[];
  files: TaggedFile[];
  backup_dir?: string;
}

/** Every language lspgate catalogs, not only the TypeScript and JavaScript extensions (`ts,tsx,js,jsx`). */
export const DEFAULT_LANG = 'ts,tsx,js,jsx,mts,cts,mjs,cjs,go,py,php';
const TYPE_KINDS = new Set(['class', 'struct', 'interface', 'trait', 'enum', 'type']);

function filesUnder(call: ServiceCall, input: TagInput): { files: string[]; single: boolean } {
  const abs = call.resolvePath(input.path);
  if (isSecretPath(abs)) throw new LspgateError('SECRET_FILE', `${input.path} is a secret file: never tagged`, { path: input.path });
  const rel = toRelative(call.root, abs);
  const exts = new Set(
    (input.lang ?? DEFAULT_LANG)
      .split(',')
      .map((e) => e.trim().replace(/^\./, '').toLowerCase())
      .filter(Boolean),
  );
  const excludes = (input.exclude ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
    .map((g) => globMatcher(g));
  const keep = (f: string) => exts.has(path.extname(f).slice(1).toLowerCase()) && !excludes.some((m) => m(f)) && !isSecretPath(f);
  const all = [...call.workspace.catalog.files().keys()];
  const single = all.includes(rel) || (rel !== '' && !all.some((f) => f.startsWith(rel + '/')));
  const files = single ? [rel] : all.filter((f) => rel === '' || f.startsWith(rel + '/'));
  return { files: files.filter(keep).sort(), single };
}

/** Top-level declarations and members of top-level types, of a tagged type, public unless asked. */
function taggable(symbols: CatalogSymbol[], file: string, includePrivate: boolean) {
  const byId = new Map(symbols.map((s) => [s.symbol_id, s]));
  const out: TagElement[] = [];
  for (const s of symbols) {
    const parent = s.parent ? byId.get(s.parent) : undefined;
    if (s.parent && (!parent || parent.parent || !TYPE_KINDS.has(parent.kind))) continue;
    const type = elementType(s, file);
    if (!type || (!includePrivate && isPrivate(s))) continue;
    out.push({ sym: s, type });
  }
  return out;
}

async function planOne(call: ServiceCall, rel: string, input: TagInput, single: boolean): Promise<{ edit?: FileEdit; tags: PlannedTag[] }> {
  // the edit path's gate: a regular file whose real path is inside, no secret by name or content
  // (a file the walk listed by its own name may be a symlink; it is tagged through its target)
  let target: { abs: string; file: string };
  try {
    target = editTargetOfPath(call.root, call.resolvePath(rel, { expect: 'file' }));
  } catch (e) {
    if (single || !(e instanceof LspgateError)) throw e;
    call.meta.warn(`${rel} not tagged: ${e.code}`);
    return { tags: [] };
  }
  const { abs } = target;
  const symbols = await call.workspace.catalog.fileSymbols(rel);
  const before = readFileSync(abs, 'utf8');
  const entry = call.workspace.catalog.files().get(rel);
  if (entry && entry.hash !== sha256(readFileSync(abs))) {
    call.meta.warn(`${rel} changed while its symbols were read: not tagged; run again`);
    return { tags: [] };
  }
  const elements = taggable(symbols, rel, input.include_private ?? false);
  if (!elements.length) return { tags: [] };
  for (const e of elements) e.leading = (await decorationOf(call.workspace, e.sym, before, { bounds: call.env.limits, signal: call.signal }))?.leading_line;
  const plan = planFile(rel, before, elements, { force: input.force ?? false, updateLineno: input.update_lineno ?? false });
  if (plan.after === before) return { tags: plan.tags };
  const edits = plan.tags.filter((t) => t.action !== 'skip').length;
  return {
    tags: plan.tags,
    edit: {
      absPath: abs,
      file: target.file,
      before,
      content_hash: sha256(before),
      after: plan.after,
      edits,
      diff: unifiedDiff(target.file, before, plan.after, 1),
    },
  };
}

export async function tagElements(call: ServiceCall, input: TagInput): Promise<TagResult> {
  const catalog = call.workspace.catalog;
  await catalog.build(call.signal ? { signal: call.signal } : {});
  const dryRun = input.dry_run ?? true;
  const { files, single } = filesUnder(call, input);
  const edits: FileEdit[] = [];
  const elements: TagResult['elements'] = [];
  for (const rel of files) {
    if (call.signal?.aborted) throw new LspgateError('CANCELLED', 'tag_elements was cancelled: nothing was written');
    const r = await planOne(call, rel, input, single);
    elements.push(...r.tags.map((t) => ({ ...t, file: rel })));
    if (r.edit) edits.push(r.edit);
  }
  const result: TagResult = { dry_run: dryRun, path: toRelative(call.root, call.resolvePath(input.path)) || '.', elements, files: [] };
  result.files = edits.map((e) => ({ file: e.file, content_hash: e.content_hash, tags: e.edits, diff: e.diff }));
  if (dryRun || !edits.length) return result;
  result.backup_dir = (await applyFileEdits(call, edits, undefined, 'tag_elements')).backup_dir;
  result.files = edits.map((e) => ({ file: e.file, content_hash: e.content_hash, new_hash: sha256(e.after), tags: e.edits, diff: e.diff }));
  return result;
}
