// The language registry and the server adapters agree with servers.json: every language a shipped
// server names is the language of a profile its adapter serves, every extension a server takes that
// lspgate parses maps to that same profile, and the profiles are found by name, languageId and extension.
import fs from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { adapterFor } from '../../src/adapters/index.js';
import { languageOfId, languageProfile, languageProfiles, profileOf, profilesOf, syntaxOf } from '../../src/adapters/languages.js';
import { shippedServersFile } from '../../src/config/load.js';
import { REPO } from '../helpers/spawn.js';

interface Entry {
  id: string;
  languages: string[];
  extensions: string[];
  languageIds?: Record<string, string>;
  adapter?: string;
}

const entries = (JSON.parse(fs.readFileSync(shippedServersFile(), 'utf8')) as { servers: Entry[] }).servers;

describe('language registry', () => {
  it.each(entries.map((e) => [e.id, e] as const))('%s: its adapter maps each languageId to a profile it serves', (_id, e) => {
    const adapter = adapterFor(e.adapter);
    const ids = [...e.languages, ...Object.values(e.languageIds ?? {})];
    for (const id of ids) {
      const language = adapter.language(id);
      expect([id, language]).toEqual([id, languageOfId(id)]);
      expect([id, adapter.languages.some((p) => p.name === language)]).toEqual([id, true]);
    }
    for (const ext of e.extensions) {
      const parsed = syntaxOf(`x${ext}`);
      const id = e.languageIds?.[ext] ?? e.languages[0]!;
      // an extension lspgate parses belongs to the profile of the language the server gives it
      if (parsed) expect([ext, parsed.profile.name]).toEqual([ext, adapter.language(id)]);
    }
  });

  it('finds a profile by name, languageId or extension; unknown languages have none', () => {
    expect(languageProfile('typescriptreact')?.name).toBe('typescript');
    expect(languageProfile('javascriptreact')?.name).toBe('javascript');
    expect(profileOf('src/a.mjs')?.name).toBe('javascript');
    expect(profileOf('src/a.zig')).toBeUndefined();
    expect(profileOf('src/a.rs')?.name).toBe('rust');
    expect(languageOfId('rust')).toBe('rust');
  });

  it('lists the profiles of every adapter folder with a profile module, each once, folders in name order', async () => {
    const dir = path.join(REPO, 'src/adapters');
    const folders = fs
      .readdirSync(dir)
      .filter((f) => fs.existsSync(path.join(dir, f, 'profile.ts')))
      .sort();
    const modules = await Promise.all(folders.map((f) => import(path.join(dir, f, 'profile.ts')) as Promise<Record<string, unknown>>));
    const names = languageProfiles().map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(languageProfiles())).toEqual(new Set(modules.flatMap((m) => Object.values(m))));
    expect(names).toEqual(profilesOf(modules).map((p) => p.name));
  });
});
