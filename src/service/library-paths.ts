/**
 * Which files outside the workspace an answer may quote (a relative import
 * of `../../sibling/x.ts` returned a preview of that file). Library code is what a definition in
 * the standard library or a dependency shows, where each language profile says its libraries live
 * (`project.libraries`: path segments, path patterns, a root named by the environment). Any other
 * outside file keeps its location (path, line) but its text is neither read nor quoted.
 */
import path from 'node:path';

import { languageProfiles } from '../adapters/languages.js';

const libraries = languageProfiles().flatMap((p) => (p.project.libraries ? [p.project.libraries] : []));
const SEGMENTS = new Set(libraries.flatMap((l) => l.segments ?? []));
const PATTERNS = libraries.flatMap((l) => l.patterns ?? []);
const ENVIRONMENT = [...new Set(libraries.flatMap((l) => l.environment ?? []))];

export function isLibraryPath(abs: string): boolean {
  const p = abs.split(path.sep).join('/');
  if (p.split('/').some((seg) => SEGMENTS.has(seg))) return true;
  if (PATTERNS.some((re) => re.test(p))) return true;
  return ENVIRONMENT.some((name) => {
    const root = process.env[name];
    return root !== undefined && root !== '' && p.startsWith(root.split(path.sep).join('/') + '/');
  });
}
