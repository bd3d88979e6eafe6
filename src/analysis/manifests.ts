/**
 * A workspace's root manifests (package.json, composer.json, go.mod, pyproject.toml …) for the
 * language profiles' rules, each read at most once per reader: a reader lives for one answer.
 * Absent or malformed files are undefined (the reports only describe what is there); a file over the
 * bound is not read (it would be parsed on the event loop) and the bound's caller is told.
 */
import path from 'node:path';

import type { ManifestReader } from '../adapters/language-profile.js';
import type { ServiceCall } from '../service/call.js';
import { type ReadBound, readJsonObjectIfAny, readTextIfAny } from '../util/optional-files.js';

/** Manifests and scripts are read up to maxFileBytes; a larger one is left out and `_meta.limits_hit` says so. */
export function manifestBound(call: ServiceCall): ReadBound {
  const maxBytes = call.env.limits.maxFileBytes;
  return {
    maxBytes,
    tooLarge: (file, bytes) =>
      call.meta.limit({ limit: 'maxFileBytes', value: maxBytes, detail: `${path.relative(call.root, file)} is ${bytes} bytes: not read` }),
  };
}

export function manifestReader(root: string, bound: ReadBound): ManifestReader {
  const texts = new Map<string, string | undefined>();
  const jsons = new Map<string, Record<string, unknown> | undefined>();
  return {
    text(name) {
      if (!texts.has(name)) texts.set(name, readTextIfAny(path.join(root, name), bound));
      return texts.get(name);
    },
    json(name) {
      if (!jsons.has(name)) jsons.set(name, readJsonObjectIfAny(path.join(root, name), bound));
      return jsons.get(name);
    },
  };
}
