/**
 * The idioms one file's parse tree shows, as counts a package's convention chunk sums
 * (conventions.ts): error handling (Go's `if err != nil` with the returns and `fmt.Errorf` wraps
 * under it, Python's raise and `return None`, throws and returned result objects), logging (the
 * logging libraries imported, console / print / fmt.Print calls), concurrency (goroutines, select,
 * channels, await, async functions, thread and async libraries imported). Read from tree nodes in
 * one walk; only a node's own short text is matched (a call's callee, a condition).
 */
import type { SyntaxNode } from '../syntax/syntax.js';

export type FileIdioms = Record<string, number>;

/** Imported module → the logging library it is. */
const LOGGERS: Record<string, string> = {
  log: 'log',
  'log/slog': 'slog',
  'go.uber.org/zap': 'zap',
  'github.com/sirupsen/logrus': 'logrus',
  'github.com/rs/zerolog': 'zerolog',
  logging: 'logging',
  loguru: 'loguru',
  structlog: 'structlog',
  winston: 'winston',
  pino: 'pino',
  bunyan: 'bunyan',
  loglevel: 'loglevel',
};

/** Imported module → the concurrency library it is. */
const CONCURRENCY: Record<string, string> = {
  sync: 'sync',
  'sync/atomic': 'sync/atomic',
  'golang.org/x/sync/errgroup': 'errgroup',
  threading: 'threading',
  multiprocessing: 'multiprocessing',
  asyncio: 'asyncio',
  'concurrent.futures': 'concurrent.futures',
  worker_threads: 'worker_threads',
  'node:worker_threads': 'worker_threads',
};

/** Longer texts than this are not matched (a callee or a condition is short). */
const SHORT = 200;

function bump(out: FileIdioms, key: string, n = 1): void {
  out[key] = (out[key] ?? 0) + n;
}

function shortText(n: SyntaxNode | null | undefined): string {
  return n && n.endIndex - n.startIndex <= SHORT ? n.text : '';
}

function callIdioms(n: SyntaxNode, out: FileIdioms): void {
  const callee = shortText(n.childForFieldName('function'));
  if (!callee) return;
  if (callee === 'fmt.Errorf') bump(out, /%w/.test(shortText(n.childForFieldName('arguments')) || n.text.slice(0, SHORT)) ? 'err_wrap_w' : 'err_wrap_plain');
  else if (callee === 'errors.New') bump(out, 'err_new');
  else if (/^fmt\.(Print|Fprint)/.test(callee)) bump(out, 'fmt_print');
  else if (/^console\.\w+$/.test(callee)) bump(out, 'console_calls');
  else if (callee === 'print') bump(out, 'print_calls');
}

function nodeIdioms(n: SyntaxNode, out: FileIdioms): void {
  switch (n.type) {
    case 'if_statement':
      if (/^\(?\s*err\s*!=\s*nil\s*\)?$/.test(shortText(n.childForFieldName('condition')))) bump(out, 'err_check');
      break;
    case 'return_statement': {
      const t = shortText(n);
      if (/^return\s+(.*,\s*)?err$/.test(t)) bump(out, 'err_return_bare');
      else if (/^return\s+None$/.test(t)) bump(out, 'return_none');
      else if (/^return\s*\{\s*(ok|error|err|success)\s*:/.test(t)) bump(out, 'result_return');
      break;
    }
    case 'raise_statement':
      bump(out, 'raise');
      break;
    case 'throw_statement':
    case 'throw_expression':
      bump(out, 'throw');
      break;
    case 'call_expression':
    case 'call':
      callIdioms(n, out);
      break;
    case 'go_statement':
      bump(out, 'goroutines');
      break;
    case 'select_statement':
      bump(out, 'select');
      break;
    case 'channel_type':
      bump(out, 'channels');
      break;
    case 'await_expression':
    case 'await':
      if (n.isNamed) bump(out, 'await');
      break;
    case 'async':
      if (!n.isNamed) bump(out, 'async_functions');
      break;
  }
}

/** The idiom counts of a parse tree and the modules it imports. */
export function idiomsOf(root: SyntaxNode, imports: readonly string[]): FileIdioms {
  const out: FileIdioms = {};
  const cursor = root.walk();
  try {
    for (;;) {
      nodeIdioms(cursor.currentNode, out);
      if (!/comment|string/.test(cursor.nodeType) && cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return withImports(out, imports);
    }
  } finally {
    cursor.delete();
  }
}

function withImports(out: FileIdioms, imports: readonly string[]): FileIdioms {
  for (const spec of new Set(imports)) {
    const logger = LOGGERS[spec];
    if (logger) bump(out, `log:${logger}`);
    const conc = CONCURRENCY[spec];
    if (conc) bump(out, `conc:${conc}`);
  }
  return out;
}

/** Naming of declared names: camelCase, PascalCase, snake_case, UPPER_CASE or other. */
export function namingOf(name: string): string {
  if (/^[a-z][a-z0-9]*$/.test(name)) return 'name_lower';
  if (/^[a-z][a-zA-Z0-9]*$/.test(name)) return 'name_camel';
  if (/^[A-Z][a-zA-Z0-9]*$/.test(name) && /[a-z]/.test(name)) return 'name_pascal';
  if (/^_*[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(name)) return 'name_snake';
  if (/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/.test(name)) return 'name_upper';
  return 'name_other';
}
