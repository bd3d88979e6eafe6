/**
 * A workspace's root manifests (package.json, composer.json, go.mod, pyproject.toml …) for the
 * language profiles' rules, each read at most once per reader: a reader lives for one answer.
 * Absent or malformed files are undefined (the reports only describe what is there).
 */
import path from 'node:path';
import type { ManifestReader } from '../adapters/language-profile.js';
import { readJsonObjectIfAny, readTextIfAny } from '../util/optional-files.js';

export function manifestReader(root: string): ManifestReader {
  const texts = new Map<string, string | undefined>();
  const jsons = new Map<string, Record<string, unknown> | undefined>();
  return {
    text(name) {
      if (!texts.has(name)) texts.set(name, readTextIfAny(path.join(root, name)));
      return texts.get(name);
    },
    json(name) {
      if (!jsons.has(name)) jsons.set(name, readJsonObjectIfAny(path.join(root, name)));
      return jsons.get(name);
    },
  };
}
