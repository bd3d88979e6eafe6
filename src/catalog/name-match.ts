/**
 * Name resolution for `lookup`: a query matches a symbol when its segments are a suffix of the
 * symbol's qualified name, or run on into the symbol's namespace / package / module path.
 * Separators `.`, `::`, `\` and `/` are equivalent, so `Router.ServeHTTP`,
 * `App\Models\User::posts` and `flask.app.Flask.route` all resolve.
 */
import type { CatalogSymbol } from '../core/catalog.js';

export function splitQualified(s: string): string[] {
  return s
    .trim()
    .split(/::|\\|\.|\/|->/)
    .filter((p) => p !== '');
}

/** Module path of a file as segments: `src/flask/app.py` → [src, flask, app]; `__init__`/`index` dropped. */
export function moduleSegments(file: string): string[] {
  const parts = file.replace(/\.[^./]+$/, '').split('/');
  const last = parts[parts.length - 1];
  if (last === '__init__' || last === 'index' || last === 'mod') parts.pop();
  return parts.filter((p) => p !== '');
}

function endsWith(list: string[], tail: string[]): boolean {
  if (tail.length > list.length) return false;
  const off = list.length - tail.length;
  return tail.every((t, i) => list[off + i] === t);
}

export function matchesQuery(sym: CatalogSymbol, query: string[]): boolean {
  if (query.length === 0) return false;
  const own = splitQualified(sym.qualified_name);
  if (own.length === 0 || query[query.length - 1] !== own[own.length - 1]) return false;
  if (endsWith(own, query)) return true;
  if (query.length <= own.length) return false;
  if (!endsWith(query, own)) return false;
  const prefix = query.slice(0, query.length - own.length);
  const dirs = moduleSegments(sym.file);
  const candidates = [
    sym.namespace ? splitQualified(sym.namespace) : [],
    sym.package ? splitQualified(sym.package) : [],
    dirs,
    sym.file.includes('/') ? sym.file.split('/').slice(0, -1) : [],
  ];
  return candidates.some((c) => c.length > 0 && endsWith(c, prefix));
}
