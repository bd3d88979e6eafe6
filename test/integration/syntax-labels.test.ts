// Every operation of the table, asked about a workspace of grammar-only languages (no server runs
// for any of its files), answers either from syntax trees and says so — `_meta.index_state:
// syntax` and the notice in the markdown an agent reads — or with a coded error (SERVER_NOT_INSTALLED
// naming the server to install, NOT_SUPPORTED, AMBIGUOUS_SYMBOL …). An unlabeled answer would be a
// syntax guess read as a compiler's: a definition "found" by name among equal declarations.
// The list of operations comes from the table itself: an operation added later is walked too, and
// one whose required input this file cannot fill fails here until it can.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';
import type { z } from 'zod';

import { LspgateError } from '../../src/errors/errors.js';
import { operations } from '../../src/operations/registry.js';
import { openScratch } from '../helpers/scratch.js';

/** Shared by two declarations of the same kind and scope (two files of one crate). */
const TIED = 'parse_line';
/** Declared once. */
const UNIQUE = 'checksum_of';
const FILE = 'rust/src/first.rs';

/** Errors that say "not from here" instead of answering: each is a code an agent acts on. */
const REFUSALS = new Set([
  'SERVER_NOT_INSTALLED',
  'NOT_SUPPORTED',
  'AMBIGUOUS_SYMBOL',
  'SYMBOL_NOT_FOUND',
  'NOT_A_GIT_REPO',
  'GIT_NOT_AVAILABLE',
  'CLONE_FAILED',
]);

type Field = z.ZodType & { def: { type: string; innerType?: Field }; options?: readonly string[]; unwrap?: () => Field };

/** The first value of an enum field (optional wrappers removed), for a required choice. */
function firstChoice(f: Field): string | undefined {
  let s: Field | undefined = f;
  while (s && (s.def.type === 'optional' || s.def.type === 'default' || s.def.type === 'nullable')) s = s.def.innerType;
  return s?.def.type === 'enum' ? s.options?.[0] : undefined;
}

/** A value for each input field an operation may need, by name; `name` is the symbol asked about. */
function valueFor(field: string, f: Field, name: string, root: string): unknown {
  switch (field) {
    case 'symbol':
    case 'function_name':
    case 'type_name':
    case 'element':
    case 'target':
    case 'query':
      return name;
    case 'symbols':
      return [name];
    case 'file':
      return FILE;
    case 'files':
      return [FILE];
    case 'line':
      return 2;
    case 'column':
      return 8;
    case 'path':
      return root;
    case 'url':
      return `file://${path.join(root, 'node_modules', 'upstream')}`;
    case 'package':
      return 'rust/src';
    case 'new_name':
      return 'renamed_thing';
    case 'to':
      return 'rust/src/moved.rs';
    case 'body':
      return 'fn replaced_thing() {}';
    case 'citation':
      return { file: FILE, start_line: 2, end_line: 4, commit_hash: '' };
    case 'dry_run':
      return true;
    case 'apply':
      return f.safeParse(false).success ? false : undefined;
    default:
      return firstChoice(f);
  }
}

/** Required fields, the name asked about, and the switches that keep a write a preview. */
function inputFor(op: (typeof operations)[number], name: string): Record<string, unknown> {
  const shape = op.input.shape as Record<string, Field>;
  const byName = Object.keys(shape).some((k) => SYMBOL_FIELDS.has(k));
  const input: Record<string, unknown> = {};
  for (const [field, f] of Object.entries(shape)) {
    const wanted = !f.safeParse(undefined).success || SYMBOL_FIELDS.has(field) || field === 'dry_run' || field === 'apply' || (field === 'package' && !byName);
    if (!wanted) continue;
    const v = valueFor(field, f, name, ROOT.value);
    if (v === undefined && !f.safeParse(undefined).success) throw new Error(`${op.name}: no value for required input field ${field}; add one to valueFor`);
    if (v !== undefined) input[field] = v;
  }
  return input;
}

/** The scratch root, once open. */
const ROOT = { value: '' };

const SYMBOL_FIELDS = new Set(['symbol', 'function_name', 'type_name', 'element', 'target', 'query', 'symbols']);

describe('every operation on a grammar-only workspace is labeled syntax or refuses with a code', async () => {
  const fx = await openScratch('syntax-labels');
  ROOT.value = fx.root;
  await fx.run('index_folder', { path: fx.root });
  // index_repo clones: the same files as a one-commit repository beside the workspace
  // (inside the root, where lspgate may open it, in a folder the walk skips)
  const upstream = path.join(fx.root, 'node_modules', 'upstream');
  fs.mkdirSync(upstream, { recursive: true });
  for (const dir of ['rust', 'java', 'shell']) fs.cpSync(path.join(fx.root, dir), path.join(upstream, dir), { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'core.hooksPath=/dev/null', ...args], { cwd: upstream, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'fixture');

  const cases = operations
    .filter((op) => op.answersFrom === undefined)
    .flatMap((op) => {
      const shape = op.input.shape as Record<string, Field>;
      const asksByName = Object.keys(shape).some((k) => SYMBOL_FIELDS.has(k));
      return (asksByName ? [TIED, UNIQUE] : [UNIQUE]).map((name) => [op.name, name] as const);
    });

  // an answer built from the files' text or the process's state is no syntax answer, and shows no symbols as if resolved
  it.each(operations.filter((op) => op.answersFrom !== undefined).map((op) => [op.name] as const))('%s answers from text or the process', async (opName) => {
    const op = operations.find((o) => o.name === opName)!;
    const input = inputFor(op, UNIQUE);
    const r = await fx.run(opName, input).catch((e: unknown) => {
      expect(e).toBeInstanceOf(LspgateError);
      return {};
    });
    expect(JSON.stringify(r)).not.toMatch(/"(symbol_id|kind)":/);
  });

  it.each(cases)('%s (%s)', async (opName, name) => {
    const op = operations.find((o) => o.name === opName)!;
    const input = inputFor(op, name);
    let answer: { result: { _meta: { index_state: string } }; text: string } | undefined;
    try {
      answer = (await fx.gateway.run(opName, { ...input, output_format: 'markdown' })) as typeof answer;
    } catch (e) {
      expect(e).toBeInstanceOf(LspgateError);
      const code = (e as LspgateError).code;
      expect(REFUSALS, `${opName} failed with ${code}: ${(e as Error).message}`).toContain(code);
      // the server to install is named
      if (code === 'SERVER_NOT_INSTALLED') expect(String((e as LspgateError).details?.install ?? ''), (e as Error).message).not.toBe('');
      return;
    }
    expect(answer!.result._meta.index_state, `${opName} answered ${JSON.stringify(answer!.result).slice(0, 400)}`).toBe('syntax');
    expect(answer!.text).toContain('index_state: syntax');
  });
});
