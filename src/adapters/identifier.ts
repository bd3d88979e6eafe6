/**
 * Whether a new name (rename_symbol) is an identifier of the file's language, checked before any
 * server sees it: a server splices the name it is given into every edited file as it is, so
 * `x(); require('child_process').execSync('id'); function y` became code. Each language adapter
 * names its own rule (its `newNameProblem`); a server lspgate has no adapter for gets the rule
 * below, which refuses what no language's identifier holds.
 */

/** Whitespace, control characters, quotes and the punctuation that ends or nests an expression. */
const NEVER_IN_AN_IDENTIFIER = /[\s\p{Cc}\p{Cf}'"`;,(){}[\]<>=+*/\\|&^%~@]/u;

/** The rule for servers without a language adapter: undefined when the name may be one. */
export function genericNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'the name is empty';
  const bad = NEVER_IN_AN_IDENTIFIER.exec(name);
  return bad ? `the name holds ${describeChar(bad[0])}, which no identifier holds` : undefined;
}

/** A name against an identifier grammar (a full-match regex), with the reason when it fails. */
export function grammarProblem(name: string, grammar: RegExp, language: string, reserved: ReadonlySet<string> = new Set()): string | undefined {
  if (name.length === 0) return 'the name is empty';
  if (reserved.has(name)) return `${name} is a keyword in ${language}`;
  if (grammar.test(name)) return undefined;
  // identifier grammars are closed under prefixes once valid: the first character after the longest
  // valid prefix is the one that breaks it (the first one when no prefix is valid)
  const chars = [...name];
  let valid = 0;
  for (let i = 1; i <= chars.length; i++) if (grammar.test(chars.slice(0, i).join(''))) valid = i;
  const at = valid < chars.length ? valid : 0;
  return `not an identifier in ${language}: ${describeChar(chars[at]!)} at character ${at + 1}`;
}

function describeChar(ch: string): string {
  const code = ch.codePointAt(0)!;
  return code > 0x20 && code < 0x7f ? `'${ch}'` : `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}
