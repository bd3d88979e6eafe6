/**
 * Python module paths from the file system: `app/models/user.py` → `app.models.user`, found by
 * walking up through `__init__.py` packages; files outside a regular package are named relative
 * to their project root (pyproject.toml / setup.py / setup.cfg), with a `src/` layout stripped.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

import { isInside } from '../../util/paths.js';

const PROJECT_MARKERS = ['pyproject.toml', 'setup.py', 'setup.cfg', 'pyrightconfig.json'];

function projectRoot(dir: string, stop: string): string {
  for (let d = dir; ; d = path.dirname(d)) {
    if (PROJECT_MARKERS.some((m) => existsSync(path.join(d, m)))) return d;
    if (d === stop || !isInside(stop, path.dirname(d)) || path.dirname(d) === d) return stop;
  }
}

/** Dotted module path of a .py/.pyi file; `__init__` names its package. */
export function modulePath(absPath: string, workspaceRoot: string): string {
  let dir = path.dirname(absPath);
  let root: string;
  if (existsSync(path.join(dir, '__init__.py')) || existsSync(path.join(dir, '__init__.pyi'))) {
    while (
      (existsSync(path.join(dir, '__init__.py')) || existsSync(path.join(dir, '__init__.pyi'))) &&
      dir !== workspaceRoot &&
      isInside(workspaceRoot, path.dirname(dir))
    ) {
      dir = path.dirname(dir);
    }
    root = dir;
  } else {
    root = projectRoot(dir, workspaceRoot);
    if (existsSync(path.join(root, 'src')) && isInside(path.join(root, 'src'), absPath)) root = path.join(root, 'src');
  }
  const rel = path.relative(root, absPath).replace(/\.pyi?$/, '');
  const parts = rel.split(path.sep).filter((p) => p !== '');
  if (parts[parts.length - 1] === '__init__') parts.pop();
  return parts.join('.');
}
