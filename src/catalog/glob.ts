/**
 * A small glob matcher for `file_pattern` filters (`*.py`, `src/**\/*.ts`, `*.{ts,tsx}`).
 * A pattern without `/` matches the file name anywhere (as .gitignore does); with `/` it matches
 * the whole workspace-relative path. Node 20's `path.matchesGlob` prints an ExperimentalWarning
 * on stderr, so it is not used.
 */
const cache = new Map<string, RegExp>();

export function globMatcher(pattern: string): (relPath: string) => boolean {
  const p = pattern.trim().replace(/^\.\//, '');
  const re = compile(p);
  return p.includes('/') ? (rel) => re.test(rel) : (rel) => re.test(rel.slice(rel.lastIndexOf('/') + 1));
}

function compile(pattern: string): RegExp {
  const hit = cache.get(pattern);
  if (hit) return hit;
  let re = '';
  let braces = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        const slash = pattern[i + 2] === '/';
        re += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '{') {
      braces++;
      re += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      re += ')';
    } else if (c === ',' && braces > 0) re += '|';
    else if (c === '[') {
      const close = pattern.indexOf(']', i + 1);
      if (close > i + 1) {
        re += '[' + pattern.slice(i + 1, close).replace(/^!/, '^').replace(/\\/g, '\\\\') + ']';
        i = close;
      } else re += '\\[';
    } else re += c.replace(/[.+^$()|\\\]}]/g, '\\$&');
  }
  while (braces-- > 0) re += ')';
  const compiled = new RegExp(`^${re}$`);
  if (cache.size > 500) cache.clear();
  cache.set(pattern, compiled);
  return compiled;
}
