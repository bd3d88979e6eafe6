/**
 * The files pyright loads at a root: its config's `include` minus `exclude` (pyrightconfig.json
 * first, as pyright reads it, else `[tool.pyright]` in pyproject.toml). A `tests/` left out of
 * `include` holds callers no reference search finds.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { ServerScope } from '../language-profile.js';

/** A TOML array of strings (`include = ["src"]`): all a scope needs, no TOML library. */
function tomlArray(section: string, key: string): string[] {
  const m = new RegExp(`^\\s*${key}\\s*=\\s*\\[([^\\]]*)\\]`, 'm').exec(section);
  return m ? [...m[1]!.matchAll(/"([^"]*)"|'([^']*)'/g)].map((x) => x[1] ?? x[2]!) : [];
}

function read(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The scope when the root's config narrows it (a non-empty `include` or `exclude`), else undefined. */
export function pyrightScope(root: string): ServerScope | undefined {
  const json = read(path.join(root, 'pyrightconfig.json'));
  let scope: ServerScope | undefined;
  if (json !== undefined) {
    let parsed: { include?: unknown; exclude?: unknown } = {};
    try {
      parsed = JSON.parse(json) as typeof parsed;
    } catch {
      return undefined; // pyright itself falls back to its defaults: everything
    }
    const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
    scope = { config: 'pyrightconfig.json', include: list(parsed.include), exclude: list(parsed.exclude) };
  } else {
    const toml = read(path.join(root, 'pyproject.toml')) ?? '';
    const start = toml.search(/^\[tool\.pyright\]\s*$/m);
    if (start < 0) return undefined;
    const rest = toml.slice(start).split('\n').slice(1).join('\n');
    const end = rest.search(/^\[/m);
    const section = end >= 0 ? rest.slice(0, end) : rest;
    scope = { config: 'pyproject.toml [tool.pyright]', include: tomlArray(section, 'include'), exclude: tomlArray(section, 'exclude') };
  }
  return scope.include.length || scope.exclude.length ? scope : undefined;
}
