/**
 * The language registry: every language profile lspgate knows (language-profile.ts), found by its
 * name, an LSP languageId, or a file's extension. Server adapters point into it (an adapter says
 * which languages it serves); a language can have a profile and no server. The registry lists no
 * language itself: the build generates profiles.generated.ts, importing the profile module of every
 * folder beside this file that has one (`<folder>/profile.ts`), so adding a language is adding its
 * folder (scripts/gen-language-registry.mjs).
 */
import { fileExtension } from '../util/paths.js';
import type { LanguageProfile, ProfileModule } from './language-profile.js';
import { PROFILE_MODULES } from './profiles.generated.js';
import type { SyntaxHook } from './syntax-hooks.js';

/** A module export that is a profile (a profile module may export helpers beside its profiles). */
function isProfile(value: unknown): value is LanguageProfile {
  const p = value as Partial<LanguageProfile> | null;
  return (
    typeof p === 'object' &&
    p !== null &&
    typeof p.name === 'string' &&
    typeof p.grammars === 'object' &&
    typeof p.syntax === 'object' &&
    typeof p.tests === 'object'
  );
}

/**
 * The profiles the modules export, modules in the order given (the generator's: folder names) and a
 * module's profiles in export-name order: a fixed order whatever the file system lists first.
 */
export function profilesOf(modules: readonly ProfileModule[]): LanguageProfile[] {
  const out: LanguageProfile[] = [];
  for (const m of modules) for (const key of Object.keys(m).sort()) if (isProfile(m[key])) out.push(m[key]);
  return out;
}

const PROFILES: readonly LanguageProfile[] = profilesOf(PROFILE_MODULES);

const byName = new Map<string, LanguageProfile>();
const byExtension = new Map<string, LanguageProfile>();
/** Interpreter name → the extension whose grammar parses its scripts. */
const byInterpreter = new Map<string, string>();
/** Two profiles claiming one name or extension would make the answer depend on folder names: refuse to start. */
function claim<K>(map: Map<K, LanguageProfile>, key: K, p: LanguageProfile): void {
  const had = map.get(key);
  if (had && had !== p) throw new Error(`language profiles ${had.name} and ${p.name} both claim ${String(key)}`);
  map.set(key, p);
}
for (const p of PROFILES) {
  for (const id of [p.name, ...p.languageIds]) claim(byName, id, p);
  for (const ext of Object.keys(p.grammars)) claim(byExtension, ext, p);
  for (const [name, ext] of Object.entries(p.interpreters ?? {})) byInterpreter.set(name, ext);
}

export function languageProfiles(): readonly LanguageProfile[] {
  return PROFILES;
}

const MANIFESTS: ReadonlySet<string> = new Set(PROFILES.flatMap((p) => p.project.manifests ?? []));

/** File names that make their directory a project of some language (its build output beside it is skipped). */
export function projectManifests(): ReadonlySet<string> {
  return MANIFESTS;
}

/** The profile of a descriptor language or LSP languageId, or undefined when lspgate has none. */
export function languageProfile(language: string | undefined): LanguageProfile | undefined {
  return language === undefined ? undefined : byName.get(language);
}

/** The descriptor language of an LSP languageId (`typescriptreact` → `typescript`); unknown ids are their own language. */
export function languageOfId(languageId: string): string {
  return byName.get(languageId)?.name ?? languageId;
}

function extensionOf(relPath: string): string {
  return fileExtension(relPath);
}

/**
 * The profile of a file: by its language when the caller knows it (the server's languageId decides,
 * e.g. for extensions a servers.json entry adds), else by its extension.
 */
export function profileOf(relPath: string, language?: string): LanguageProfile | undefined {
  return languageProfile(language) ?? byExtension.get(extensionOf(relPath));
}

/** The bytes of a script's first line read to find its interpreter (`#!/usr/bin/env -S python3 -u`). */
export const SHEBANG_BYTES = 256;

/**
 * The extension whose grammar parses a script, by the interpreter its `#!` line names
 * (`#!/bin/sh`, `#!/usr/bin/env bash`, `#!/usr/bin/env -S node --flag`, `#!/usr/bin/python3.11`),
 * from the interpreters profiles declare; undefined for any other first line.
 */
export function scriptExtension(head: Buffer | string): string | undefined {
  const text = (typeof head === 'string' ? head : head.subarray(0, SHEBANG_BYTES).toString('latin1')).split('\n', 1)[0]!;
  if (!text.startsWith('#!')) return undefined;
  const words = text.slice(2).trim().split(/\s+/);
  let i = 0;
  // env runs the named program: skip its options (-S, -i) and VAR=value assignments
  if (words[0]?.split('/').pop() === 'env') for (i = 1; i < words.length && (words[i]!.startsWith('-') || words[i]!.includes('=')); i++);
  const name = words[i]?.split('/').pop();
  if (!name) return undefined;
  return byInterpreter.get(name) ?? byInterpreter.get(name.replace(/[\d.]+$/, '')) ?? byInterpreter.get(name.replace(/\.[\d.]+$/, ''));
}

/**
 * The profile and grammar that parse a file, by its extension; a file with none by the interpreter
 * of its first line (`head`: its first bytes); undefined when lspgate parses no such files.
 */
export function syntaxOf(relPath: string, head?: Buffer | string): { profile: LanguageProfile; grammar: string } | undefined {
  let ext = extensionOf(relPath);
  if (ext === '' && head !== undefined) ext = scriptExtension(head) ?? '';
  const profile = byExtension.get(ext);
  const grammar = profile?.grammars[ext];
  return profile && grammar ? { profile, grammar } : undefined;
}

export interface DeclaredQuery {
  profile: string;
  /** The syntax hook (`imports`, `patterns`, `complexity` …). */
  concern: string;
  grammar: string;
  source: string;
}

/** Every (query, grammar) pair a profile declares: each hook's query for each grammar of the profile. */
export function syntaxQueries(profile: LanguageProfile): DeclaredQuery[] {
  const grammars = [...new Set(Object.values(profile.grammars))];
  const out: DeclaredQuery[] = [];
  for (const [concern, hook] of Object.entries(profile.syntax) as [string, Partial<SyntaxHook> | undefined][]) {
    if (hook?.query !== undefined) for (const grammar of grammars) out.push({ profile: profile.name, concern, grammar, source: hook.query });
  }
  return out;
}
