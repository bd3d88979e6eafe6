/**
 * get_symbol / get_symbols name their symbol as every other operation does: `symbol` (a name or
 * qualified name), `symbol_id`, or `file` + `line` (+ `column`). All three resolve in the catalog,
 * without asking a server: a name through the resolution policy (a clear leader, the others in
 * `_meta.alternatives`; a tie is AMBIGUOUS_SYMBOL, as for any operation that needs one target), a
 * line as the symbol edits resolve it (declaration-group.ts).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import type { SymbolFilter } from '../../core/catalog.js';
import { LspgateError } from '../../errors/errors.js';
import type { ServiceCall } from '../call.js';
import { declarationAt } from '../navigation/declaration-group.js';
import { checkOneTarget, filterOf, lookupOne, type TargetInput } from '../navigation/resolve.js';

async function atLine(call: ServiceCall, file: string, line: number | undefined, column: number | undefined, kind: string | undefined): Promise<string> {
  if (line === undefined) throw new LspgateError('INVALID_INPUT', '`file` needs `line` (1-based)');
  const abs = call.resolvePath(file, { expect: 'file' });
  const rel = path.relative(call.root, abs).split(path.sep).join('/');
  const lines = (await readFile(abs, 'utf8')).split(/\r\n|\r|\n/).length;
  if (line > lines) throw new LspgateError('INVALID_INPUT', `line ${line} is outside ${rel} (1..${lines})`, { line, lines });
  const sym = declarationAt(await call.workspace.catalog.fileSymbols(rel), line, column, kind);
  if (!sym) throw new LspgateError('SYMBOL_NOT_FOUND', `no cataloged declaration holds ${rel}:${line}`, { file: rel, line });
  return sym.symbol_id;
}

/** The symbol id a target names (get_symbol). */
export async function targetSymbolId(call: ServiceCall, input: TargetInput): Promise<string> {
  checkOneTarget(input);
  if (input.file !== undefined) return atLine(call, input.file, input.line, input.column, input.kind);
  if (input.line !== undefined || input.column !== undefined) throw new LspgateError('INVALID_INPUT', '`line` and `column` go with `file`');
  if (input.symbol_id !== undefined) return input.symbol_id;
  // `symbol` takes an id too: the REPL's and the CLI's positional word may be either
  return idOrName(call, input.symbol!, filterOf(input), input.strict);
}

/** `path::Qualified.name#kind` (`~N` on collisions): no name has this shape (a PHP `User::posts` has no `#kind`). */
const SYMBOL_ID = /^[^:]+::.+#[a-z_]+(~\d+)?$/;

/** An entry in a symbol id's shape is that id; anything else a name, resolved (get_symbols' entries; get_symbol's `symbol`). */
export async function idOrName(call: ServiceCall, entry: string, filter: SymbolFilter = {}, strict?: boolean): Promise<string> {
  if (SYMBOL_ID.test(entry)) return entry;
  return (await lookupOne(call, entry, filter, undefined, { strict })).symbol_id;
}
