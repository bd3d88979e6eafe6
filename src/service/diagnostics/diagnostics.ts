/**
 * get_diagnostics: for one file, a list, the files changed since HEAD / since the last answer, or
 * the whole workspace (bounded by a file budget). Each file says how its diagnostics were obtained
 * (pull or push) and for which content (document version + sha256), so an answer is never the
 * diagnostics of an older text.
 */
import { projectManifests } from '../../adapters/languages.js';
import { walkWorkspace } from '../../catalog/walk.js';
import { LspgateError, toLspgateError } from '../../errors/errors.js';
import { isInside, toRelative } from '../../util/paths.js';
import type { ServiceCall } from '../call.js';
import { changedSinceAnswered, gitChangedFiles, rememberAnswered } from './changed-files.js';
import { atLeast, compareEntries, type DiagnosticEntry, SEVERITIES, type Severity, toDiagnosticEntry } from './diagnostic-entries.js';
import { documentDiagnostics } from './diagnostics-source.js';

export interface DiagnosticsInput {
  file?: string | undefined;
  files?: string[] | undefined;
  changed?: boolean | undefined;
  severity?: Severity | undefined;
  max_files?: number | undefined;
  max_results?: number | undefined;
}

export interface FileDiagnostics {
  file: string;
  server: string;
  mode: 'pull' | 'request' | 'push';
  /** The document version and content hash these diagnostics were computed for. */
  version: number;
  content_hash: string;
  diagnostics: DiagnosticEntry[];
}

export type Counts = Record<Severity, number>;

export interface DiagnosticsResult {
  files: FileDiagnostics[];
  total: number;
  counts: Counts;
  files_checked: number;
  /** `details`: the coded error's (SERVER_NOT_INSTALLED's server and install hint); not part of the operation's output. */
  failed: { file: string; code: string; message: string; details?: Record<string, unknown> }[];
}

const DEFAULT_MAX_FILES = 50;
const DEFAULT_MAX_RESULTS = 500;
/** Files diagnosed at once: each holds a server-side wait, not CPU, but servers share 2 cores. */
const CONCURRENCY = 4;

export async function getDiagnostics(call: ServiceCall, input: DiagnosticsInput): Promise<DiagnosticsResult> {
  const targets = await targetFiles(call, input);
  const maxFiles = input.max_files ?? DEFAULT_MAX_FILES;
  const shown = targets.files.slice(0, maxFiles);
  if (targets.files.length > maxFiles) {
    call.meta.truncate();
    call.meta.limit({ limit: 'max_files', value: maxFiles, detail: `${targets.files.length} files, ${maxFiles} diagnosed` });
  }
  const { files, failed } = await diagnoseFiles(call, shown, input.severity ?? 'hint', targets.single);
  rememberAnswered(
    call.workspace,
    files.map((f) => ({ absPath: `${call.root}/${f.file}`, hash: f.content_hash })),
  );
  return { ...budget(call, files, input.max_results ?? DEFAULT_MAX_RESULTS), files_checked: files.length, failed };
}

/**
 * Diagnostics of each file, CONCURRENCY at a time; a file that fails is listed in `failed` (or, for
 * a single file, thrown), never dropped. Remembers nothing: get_diagnostics' `changed` mode counts
 * only its own answers.
 */
export async function diagnoseFiles(
  call: ServiceCall,
  absPaths: string[],
  min: Severity,
  single = false,
): Promise<{ files: FileDiagnostics[]; failed: DiagnosticsResult['failed'] }> {
  const results: (FileDiagnostics | undefined)[] = new Array(absPaths.length);
  const failed: DiagnosticsResult['failed'] = [];
  let next = 0;
  const worker = async () => {
    while (next < absPaths.length) {
      const i = next++;
      const abs = absPaths[i]!;
      try {
        results[i] = await diagnoseFile(call, abs, min);
      } catch (e) {
        const err = toLspgateError(e);
        if (single || err.code === 'CANCELLED') throw err;
        failed.push({ file: toRelative(call.root, abs), code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, absPaths.length) }, worker));
  return { files: results.filter((r): r is FileDiagnostics => r !== undefined), failed };
}

async function diagnoseFile(call: ServiceCall, abs: string, min: Severity): Promise<FileDiagnostics> {
  const session = await call.session(abs);
  const got = await documentDiagnostics(session, abs, { maxFileBytes: call.env.limits.maxFileBytes, signal: call.signal });
  call.meta.addSourceFile(abs);
  if (got.note) call.meta.warn(`${toRelative(call.root, abs)}: ${got.note}`);
  const ctx = { root: call.root, text: got.doc.text, encoding: session.positionEncoding };
  const diagnostics = got.diagnostics
    .map((d) => toDiagnosticEntry(d, ctx))
    .filter((d) => atLeast(d.severity, min))
    .sort(compareEntries);
  return { file: toRelative(call.root, abs), server: session.serverId, mode: got.mode, version: got.doc.version, content_hash: got.doc.hash, diagnostics };
}

/** Cuts the listed diagnostics at `max` (files keep their stamps; counts cover everything). */
function budget(call: ServiceCall, files: FileDiagnostics[], max: number): Pick<DiagnosticsResult, 'files' | 'total' | 'counts'> {
  const counts = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Counts;
  let total = 0;
  for (const f of files) {
    for (const d of f.diagnostics) {
      counts[d.severity]++;
      total++;
    }
  }
  if (total <= max) return { files, total, counts };
  call.meta.truncate();
  call.meta.limit({ limit: 'max_results', value: max, detail: `${total} diagnostics, ${max} listed` });
  let left = max;
  const cut = files.map((f) => {
    const keep = f.diagnostics.slice(0, Math.max(0, left));
    left -= keep.length;
    return { ...f, diagnostics: keep };
  });
  return { files: cut, total, counts };
}

async function targetFiles(call: ServiceCall, input: DiagnosticsInput): Promise<{ files: string[]; single: boolean }> {
  const given = [input.file, input.files, input.changed].filter((x) => x !== undefined && x !== false).length;
  if (given > 1) throw new LspgateError('INVALID_INPUT', 'give one of file, files or changed: true');
  if (input.file !== undefined) return { files: [call.resolvePath(input.file, { expect: 'file' })], single: true };
  if (input.files !== undefined) return { files: unique(input.files.map((f) => call.resolvePath(f, { expect: 'file' }))), single: false };
  if (input.changed) return { files: await changedFiles(call), single: false };
  return { files: await workspaceFiles(call), single: false };
}

async function changedFiles(call: ServiceCall): Promise<string[]> {
  const fromGit = await gitChangedFiles(call.root, call.signal);
  if (!fromGit) call.meta.warn('not a git work tree: only files changed since the last get_diagnostics answer are listed');
  const all = unique([...(fromGit ?? []), ...changedSinceAnswered(call.workspace)]);
  return all.filter((abs) => isInside(call.root, abs) && call.env.broker.route(abs, call.root) !== undefined);
}

/** Every file a server serves, in path order (the catalog's walk: gitignore, secrets, size limits). */
async function workspaceFiles(call: ServiceCall): Promise<string[]> {
  const limits = call.env.limits;
  const walk = await walkWorkspace(call.root, {
    maxFileBytes: limits.maxFileBytes,
    maxFiles: limits.maxFiles,
    manifests: projectManifests(),
    signal: call.signal,
  });
  for (const hit of walk.limitsHit) call.meta.limit(hit);
  return walk.files.map((f) => f.abs).filter((abs) => call.env.broker.route(abs, call.root) !== undefined);
}

function unique(list: string[]): string[] {
  return [...new Set(list)].sort();
}
