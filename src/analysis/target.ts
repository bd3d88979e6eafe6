/**
 * The analyses' single `target` string (a name, a qualified name, `Class#method`, a symbol id, or a
 * file) → what lspgate's resolver takes. A symbol id is tried first (it has `::` and ends in
 * `#kind`), then an existing workspace file, then a name (`Class#method` read as `Class.method`).
 */
import { LspgateError } from '../errors/errors.js';
import type { ServiceCall } from '../service/call.js';
import { type ResolvedTarget, resolveTarget, type TargetInput } from '../service/navigation/resolve.js';
import { toRelative } from '../util/paths.js';

export type ParsedTarget = { kind: 'symbol'; input: TargetInput } | { kind: 'file'; file: string };

const SYMBOL_ID = /::.+#[a-z_]+(~\d+)?$/;

export function parseTarget(
  call: ServiceCall,
  target: string,
  filter: Omit<TargetInput, 'symbol' | 'symbol_id' | 'file' | 'line' | 'column'> = {},
): ParsedTarget {
  const t = target.trim();
  if (!t) throw new LspgateError('INVALID_INPUT', '`target` is empty');
  if (SYMBOL_ID.test(t)) return { kind: 'symbol', input: { symbol_id: t } };
  if (/[/\\]|\.\w+$/.test(t) && !t.includes('::')) {
    let abs: string | undefined;
    try {
      abs = call.resolvePath(t, { expect: 'file' });
    } catch (e) {
      // Not a file of the workspace: a path-looking name (`App\Models\User`, `flask.app.Flask`) is a name.
      if (!(e instanceof LspgateError) || (e.code !== 'FILE_NOT_FOUND' && e.code !== 'INVALID_INPUT')) throw e;
    }
    if (abs) return { kind: 'file', file: toRelative(call.root, abs) };
  }
  return { kind: 'symbol', input: { ...filter, symbol: t.replace(/#/g, '.') } };
}

/** A symbol target resolved, or INVALID_INPUT when a symbol is needed and a file was given. */
export async function resolveSymbolTarget(call: ServiceCall, parsed: ParsedTarget, what: string): Promise<ResolvedTarget> {
  if (parsed.kind === 'file')
    throw new LspgateError('INVALID_INPUT', `${what} needs a function, method or class, not a file (${parsed.file})`, { file: parsed.file });
  return resolveTarget(call, parsed.input);
}

/** The file a target stands for: the file itself, or the file declaring the symbol. */
export async function targetFile(call: ServiceCall, parsed: ParsedTarget): Promise<{ file: string; label: string }> {
  if (parsed.kind === 'file') return { file: parsed.file, label: parsed.file };
  const t = await resolveTarget(call, parsed.input);
  return { file: t.file.relPath, label: t.label };
}
