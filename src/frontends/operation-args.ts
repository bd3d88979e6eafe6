/**
 * One-shot arguments, parsed with node:util parseArgs from options generated out of the
 * operation's input schema: `--<field> value` (also `--<field-with-dashes>`), booleans as bare
 * flags (`--no-<flag>` for false), arrays by repeating the flag, positionals filling the fields
 * the operation lists for the REPL. Numbers and booleans are coerced from the field types.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

import { redactText } from '../catalog/published/url.js';
import { LspgateError } from '../errors/errors.js';
import type { Operation } from '../operations/types.js';
import { coerceWord, inputFields } from './input-fields.js';
import { nearestName } from './nearest-name.js';

export interface CommonFlags {
  root?: string;
  servers: string[];
  json: boolean;
  help: boolean;
  /** --daemon auto|off|require (validated by daemonMode). */
  daemon?: string;
  /** --index <postgres-url>: answer the catalog from the published index (gateway.ts). */
  index?: string;
  /** --flow-corpus FILE, --policy FILE (service/search/corpus-sync.ts). */
  flowCorpus?: string;
  policy?: string;
}

/** Flags every command takes besides its own. */
export const COMMON_OPTIONS = {
  root: { type: 'string' },
  servers: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  daemon: { type: 'string' },
  index: { type: 'string' },
  'flow-corpus': { type: 'string' },
  policy: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

export function parseOperationArgs(op: Operation, argv: string[]): { input: Record<string, unknown>; flags: CommonFlags } {
  const fields = inputFields(op);
  const options: NonNullable<ParseArgsConfig['options']> = { ...COMMON_OPTIONS };
  const flagToField = new Map<string, string>();
  for (const f of fields) {
    const opt = f.type === 'boolean' ? { type: 'boolean' as const } : { type: 'string' as const, multiple: f.type === 'array' };
    for (const flag of new Set([f.name, f.name.replace(/_/g, '-')])) {
      if (flag in COMMON_OPTIONS) continue;
      options[flag] = opt;
      flagToField.set(flag, f.name);
    }
  }
  refuseUnknownOption(
    op.name,
    fields.map((f) => f.name),
    argv,
    options,
  );
  const parsed = guardedParse({ args: argv, options, allowPositionals: true, strict: true, allowNegative: true });
  const input: Record<string, unknown> = {};
  for (const [flag, value] of Object.entries(parsed.values)) {
    const name = flagToField.get(flag);
    if (!name || value === undefined) continue;
    const field = fields.find((f) => f.name === name)!;
    if (typeof value === 'boolean') input[name] = value;
    else if (Array.isArray(value)) {
      // One JSON-array word, or one word per element.
      const words = value.map(String);
      const prev = Array.isArray(input[name]) ? (input[name] as unknown[]) : [];
      input[name] =
        words.length === 1 && words[0]!.trimStart().startsWith('[') ? coerceWord(field, words[0]!) : [...prev, ...words.map((w) => coerceWord(field, w, true))];
    } else input[name] = coerceWord(field, String(value));
  }
  const positional = op.repl?.positional ?? [];
  if (parsed.positionals.length > positional.length) {
    throw new LspgateError('INVALID_INPUT', `unexpected argument ${JSON.stringify(parsed.positionals[positional.length])}; use --<field> value`, {
      positional,
    });
  }
  parsed.positionals.forEach((word, i) => {
    const field = fields.find((f) => f.name === positional[i])!;
    input[field.name] = coerceWord(field, word);
  });
  const v = parsed.values as Record<string, unknown>;
  return {
    input,
    flags: {
      root: v.root as string | undefined,
      servers: (v.servers as string[] | undefined) ?? [],
      json: Boolean(v.json),
      help: Boolean(v.help),
      daemon: v.daemon as string | undefined,
      ...(v.index !== undefined ? { index: v.index as string } : {}),
      ...(typeof v['flow-corpus'] === 'string' ? { flowCorpus: v['flow-corpus'] } : {}),
      ...(typeof v.policy === 'string' ? { policy: v.policy } : {}),
    },
  };
}

/**
 * INVALID_INPUT naming the first flag of `argv` the operation does not have, as the operation's own
 * (parseArgs' message says how to pass a positional that starts with '-'), with the field it was
 * meant to be when one is near.
 */
function refuseUnknownOption(opName: string, fieldNames: string[], argv: readonly string[], options: NonNullable<ParseArgsConfig['options']>): void {
  const unknown = unknownOption(argv, options)?.slice(0, 100);
  if (unknown === undefined) return;
  const near = nearestName(unknown.replace(/-/g, '_'), fieldNames);
  throw new LspgateError(
    'INVALID_INPUT',
    `${opName} has no option --${unknown}${near ? `; did you mean --${near}?` : ''} (lspgate ${opName} --help lists its options)`,
    { option: unknown, options: fieldNames },
  );
}

/**
 * The first `--name` of `argv` that `options` does not hold (`--no-name` holds when `name` is a
 * boolean), before a `--`; a string option's next word is its value, whatever it looks like.
 */
function unknownOption(argv: readonly string[], options: NonNullable<ParseArgsConfig['options']>): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') return undefined;
    if (!word.startsWith('--')) continue;
    const name = word.slice(2).split('=')[0]!;
    const negated = name.startsWith('no-') ? options[name.slice(3)] : undefined;
    const opt = Object.hasOwn(options, name) ? options[name] : negated?.type === 'boolean' ? negated : undefined;
    if (!opt) return name;
    if (opt.type === 'string' && !word.includes('=')) i++;
  }
  return undefined;
}

/** parseArgs with its TypeErrors (unknown option, missing value) turned into INVALID_INPUT. */
export function guardedParse<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (e) {
    const err = e as Error & { code?: string };
    if (typeof err.code === 'string' && err.code.startsWith('ERR_PARSE_ARGS')) {
      // an argument echoed back may be a connection URL: never with its password
      throw new LspgateError('INVALID_INPUT', redactText(err.message), { argument_error: err.code });
    }
    throw e;
  }
}
