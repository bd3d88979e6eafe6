/**
 * What an untrusted folder's own `.lspgate/servers.json` may set: data only, by allowlist. Of an
 * entry's fields, only those that route files or describe the project (languages, extensions,
 * root markers, capabilities not to use, `enabled: false`) and the server's `settings` /
 * `initializationOptions` are kept; `command`, `args`, `package`, `binPath`, `node`, `extraPath`,
 * `env`, `requires`, `runsPrograms` and every other field are dropped, and an entry the shipped and
 * user layers do not define is dropped whole (a new server is a new program).
 *
 * Inside settings, a value survives only when it cannot name a file: booleans, numbers, null, and
 * short words of letters, digits, `_` and `-` (`"strict"`, `"openFilesOnly"`, `"warning"`) — no `/`,
 * `\`, `.`, `~` or `$`, so no path and no `${root}` expansion can come through. A bare word can still
 * name a program on PATH or a file relative to the root (pyright resolves `python.pythonPath`
 * against the workspace), so keys that name a program, interpreter, SDK, plugin, path, directory,
 * file or environment (`pythonPath`, `venvPath`, `defaultInterpreterPath`, `tsdk`, `tsserver`, `plugins`, `env`,
 * `storagePath`…) are dropped whatever their value. Each dropped setting is named, for a warning.
 */

type RawEntry = Record<string, unknown> & { id: string };

const ENTRY_FIELDS = new Set(['id', 'description', 'languages', 'extensions', 'languageIds', 'rootMarkers', 'rootStrategy', 'disabledCapabilities']);
const SETTINGS_FIELDS = new Set(['settings', 'initializationOptions']);

/**
 * Key names that point at something to run or read outside the settings themselves. Deliberately
 * wide (it also drops `directoryFilters` or `files.exclude`): a dropped harmless key costs a warning,
 * a kept program costs the machine.
 */
const PROGRAM_KEY =
  /path|dir|folder|file|root|interpreter|venv|env|sdk|tsserver|plugin|program|command|cmd|exec|bin|node|npm|yarn|pnpm|tool|script|shell|server|location|storage|cache|log|trace|url|uri|host|proxy|licen|key|token|telemetry|install|download|require|load|module|include|extra|custom|external|vendor|gopath|goroot|flags|build/i;

const WORD = /^[A-Za-z0-9_-]{0,64}$/;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function safeLeaf(v: unknown): boolean {
  if (v === null || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (typeof v === 'string') return WORD.test(v);
  if (Array.isArray(v))
    return (
      v.length <= 64 &&
      v.every((x) => x === null || typeof x === 'boolean' || (typeof x === 'number' && Number.isFinite(x)) || (typeof x === 'string' && WORD.test(x)))
    );
  return false;
}

/** The settings object with every unsafe key or value removed; dropped ones pushed as dotted paths. */
function filterSettings(obj: Record<string, unknown>, at: string, dropped: string[], depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    const name = `${at}.${k}`;
    if (PROGRAM_KEY.test(k) || depth > 8) dropped.push(name);
    else if (isPlainObject(v)) {
      const inner = filterSettings(v, name, dropped, depth + 1);
      if (Object.keys(inner).length) out[k] = inner;
    } else if (safeLeaf(v)) out[k] = v;
    else dropped.push(name);
  }
  return out;
}

export interface FilteredLayer {
  entries: RawEntry[];
  /** `servers[pyright].settings.python.pythonPath`, `servers[x]` (a new entry), in file order. */
  ignored: string[];
}

/** The untrusted layer's entries cut to data; `known`: the ids the shipped and user layers define. */
export function untrustedLayer(entries: RawEntry[], known: ReadonlySet<string>): FilteredLayer {
  const ignored: string[] = [];
  const out: RawEntry[] = [];
  for (const e of entries) {
    const at = `servers[${e.id}]`;
    if (!known.has(e.id)) {
      ignored.push(`${at} (a server entry the user's config does not define)`);
      continue;
    }
    const kept: RawEntry = { id: e.id };
    for (const [field, v] of Object.entries(e)) {
      if (field === 'id') continue;
      if (ENTRY_FIELDS.has(field)) kept[field] = v;
      else if (field === 'enabled' && v === false) kept.enabled = false;
      else if (SETTINGS_FIELDS.has(field) && isPlainObject(v)) kept[field] = filterSettings(v, `${at}.${field}`, ignored);
      else ignored.push(`${at}.${field}`);
    }
    out.push(kept);
  }
  return { entries: out, ignored };
}
