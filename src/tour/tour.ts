/**
 * `lspgate tour --root DIR`: the main job on any workspace, for a person at a terminal. It catalogs
 * the workspace, then, for every language found, picks the most-referenced-looking type and function
 * (deterministically: the first in path order with the most methods / the first callable) and shows
 * what each operation answers. Every answer goes through the same runner as MCP and the sidecar.
 */
import { isTestPath } from '../adapters/test-files.js';
import type { CatalogSymbol } from '../core/catalog.js';
import { isLspgateError, toLspgateError } from '../errors/errors.js';
import type { Gateway } from '../gateway/gateway.js';

// Types whose methods the tour shows (narrower than find_type_definition's TYPE_KINDS).
const METHOD_OWNER_KINDS = new Set(['class', 'struct', 'interface', 'trait']);
const FN_KINDS = new Set(['function', 'method']);

export interface TourOptions {
  write: (s: string) => void;
  /** Max languages/symbols shown (keeps the output readable on big repos). */
  perLanguage?: number;
}

export async function runTour(gateway: Gateway, opts: TourOptions): Promise<{ failures: number }> {
  const { write } = opts;
  let failures = 0;
  const ws = await gateway.workspaceFor(undefined);
  write(`# lspgate tour of ${ws.root}\n\n`);
  const status = await ws.catalog.build({
    onProgress: (done, total) => {
      if (done === total || done % 50 === 0) process.stderr.write(`cataloged ${done}/${total} files\n`);
    },
  });
  write(`Catalog: ${status.files} files, ${status.symbols} symbols, state ${status.state}`);
  write(status.errors.length ? `, ${status.errors.length} file(s) failed:\n` : '\n');
  for (const e of status.errors.slice(0, 10)) write(`  - ${e.file}: ${e.code} ${e.message}\n`);
  write('\n');

  const byLanguage = new Map<string, CatalogSymbol[]>();
  for (const s of (await ws.catalog.all?.()) ?? []) {
    const list = byLanguage.get(s.language) ?? [];
    list.push(s);
    byLanguage.set(s.language, list);
  }
  const step = async (title: string, op: string, input: Record<string, unknown>) => {
    write(`## ${title}\n\n\`${op} ${JSON.stringify(input)}\`\n\n`);
    try {
      const { text, result } = await gateway.run(op, { ...input, output_format: 'markdown' });
      write(text.trimEnd() + '\n\n');
      write(`_${result._meta.timing_ms} ms, index ${result._meta.index_state}, ~${result._meta.tokens_saved} tokens saved_\n\n`);
    } catch (e) {
      const err = toLspgateError(e);
      if (!isLspgateError(e) || !['NOT_SUPPORTED', 'SERVER_NOT_INSTALLED'].includes(err.code)) failures++;
      write(`**${err.code}**: ${err.message}\n\n`);
    }
  };

  for (const [language, symbols] of [...byLanguage].sort(([a], [b]) => a.localeCompare(b))) {
    write(`# ${language}\n\n`);
    const type = pickType(symbols);
    const fn = pickFunction(symbols);
    if (type) {
      await step(`Outline of ${type.file}`, 'get_file_outline', { file: type.file });
      await step(`Type ${type.qualified_name}`, 'find_type_definition', { symbol_id: type.symbol_id });
    }
    if (fn) {
      await step(`Function ${fn.qualified_name}`, 'get_function_details', { symbol_id: fn.symbol_id });
      await step(`References to ${fn.qualified_name}`, 'find_references', { symbol_id: fn.symbol_id, max_results: 10 });
      await step(`Callers of ${fn.qualified_name}`, 'find_callers', { symbol_id: fn.symbol_id, depth: 2 });
    }
  }
  await step('Servers', 'list_workspaces', {});
  return { failures };
}

function pickType(symbols: CatalogSymbol[]): CatalogSymbol | undefined {
  const types = symbols.filter((s) => METHOD_OWNER_KINDS.has(s.kind));
  const methodCount = (t: CatalogSymbol) => symbols.filter((s) => s.parent === t.symbol_id && FN_KINDS.has(s.kind)).length;
  return types.sort((a, b) => methodCount(b) - methodCount(a) || a.symbol_id.localeCompare(b.symbol_id))[0];
}

/** A named function or method (not an anonymous callback), preferring ones with callers to show. */
function pickFunction(symbols: CatalogSymbol[]): CatalogSymbol | undefined {
  const byId = new Map(symbols.map((s) => [s.symbol_id, s]));
  // A method of a class (not of an object literal), else a top-level function.
  const rank = (s: CatalogSymbol) => {
    const parent = s.parent ? byId.get(s.parent) : undefined;
    if (parent && METHOD_OWNER_KINDS.has(parent.kind)) return 0;
    return parent ? 2 : 1;
  };
  const named = symbols.filter((s) => FN_KINDS.has(s.kind) && /^[A-Za-z_$][\w$]{2,}$/.test(s.name) && !isTestPath(s.file, s.language));
  return named.sort((a, b) => rank(a) - rank(b) || a.symbol_id.localeCompare(b.symbol_id))[0];
}
