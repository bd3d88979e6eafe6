/**
 * What the thin entry knows of the operation table without loading it (node builtins only):
 * operations.json, written from the table by the build (scripts/gen-operation-list.mjs; never
 * edited by hand). `lspgate mcp --tools` is checked here: a bad value is the full CLI's startup
 * error — the same `INVALID_INPUT: …` text (details included) and exit status 2 — printed before
 * any daemon is reached or started. test/unit/thin-tools.test.ts keeps the file equal to the
 * table and the text equal to parseToolsFlag + selectTools + errorText's.
 */
import { readFileSync } from 'node:fs';

export interface ListedOperation {
  name: string;
  title: string;
  /** REPL dot-command, without the dot. */
  repl?: string;
  profile: 'core' | 'all' | 'name';
  /** `lspgate <operation> --help`. */
  help: string;
}

let table: readonly ListedOperation[] | undefined;

/** The operations in the table's order. */
export function listedOperations(): readonly ListedOperation[] {
  table ??= (JSON.parse(readFileSync(new URL('./operations.json', import.meta.url), 'utf8')) as { operations: ListedOperation[] }).operations;
  return table;
}

export function operationNames(): string[] {
  return listedOperations().map((o) => o.name);
}

/** What the full CLI prints on stderr for this `--tools` value (exit status 2), or undefined when it is valid. */
export function toolsFlagError(flag: string, valid: readonly string[] = operationNames()): string | undefined {
  const v = flag.trim();
  if (v === 'core' || v === 'default' || v === 'all') return undefined;
  const names = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0) return 'INVALID_INPUT: --tools needs core, default, all, or a comma-separated list of tool names\n';
  const unknown = names.filter((n) => !valid.includes(n));
  if (unknown.length === 0) return undefined;
  const message = `unknown tool${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} in --tools / "tools"; valid: core, default, all, ${valid.join(', ')}`;
  return `INVALID_INPUT: ${message}\n${JSON.stringify({ unknown, valid }, null, 2)}\n`;
}
