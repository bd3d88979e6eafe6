/**
 * get_hover and signature_help. The hover is the server's markdown (fromHoverContents), split into
 * code and prose (splitHoverMarkdown); its parsed signature comes from the same adapter parsers
 * that build FunctionDescriptors, applied to the declaration the hovered name resolves to.
 */
import {
  DefinitionRequest,
  HoverRequest,
  type Location,
  type MarkupContent,
  type Position,
  SignatureHelpRequest,
  type SignatureInformation,
} from 'vscode-languageserver-protocol';

import { languageProfile } from '../../adapters/languages.js';
import type { FileContext } from '../../adapters/types.js';
import type { SymbolContext } from '../../adapters/types.js';
import { LspgateError } from '../../errors/errors.js';
import { offsetAt, toLspPosition } from '../../lsp/positions.js';
import { fromHoverContents, splitHoverMarkdown } from '../../schema/convert/hover-text.js';
import { FUNCTION_KINDS } from '../../schema/convert/lsp-kind.js';
import type { FunctionDescriptor } from '../../schema/descriptors.js';
import type { ServiceCall } from '../call.js';
import { locate, toLocations } from '../locations.js';
import { TextGate, withheldOrigin } from '../server-texts.js';
import { symbolAtSelection } from '../symbols.js';
import { calleeOffset } from './callee.js';
import { type ResolvedTarget, resolvePosition, resolveTarget, type TargetInput } from './resolve.js';

export interface ParsedSignature {
  text: string;
  parameters?: FunctionDescriptor['parameters'];
  returns?: FunctionDescriptor['returns'];
}

export interface HoverResult {
  symbol: string;
  found: boolean;
  markdown: string;
  code: string[];
  documentation: string;
  signature?: ParsedSignature;
  /** Why nothing of the hover is shown (server-texts.ts): its symbol is declared in a secret file or outside the workspace. */
  withheld?: string;
}

export async function getHover(call: ServiceCall, input: TargetInput): Promise<HoverResult> {
  const target = await resolveTarget(call, input);
  const { file } = target;
  // the declaration decides whether the hover may be quoted (it quotes that file's docs and values)
  const [answer, declarations] = await Promise.all([
    file.session.request(HoverRequest.type, { textDocument: { uri: file.uri }, position: target.position }, { signal: call.signal }),
    declarationsAt(call, file, target.position),
  ]);
  const raw = fromHoverContents(answer);
  const gate = new TextGate(call);
  const markdown = raw === undefined ? undefined : gate.text(cleanMarkdown(raw));
  // "Nothing to show here" is an answer of a ready server, not an unknown.
  if (!markdown) return { symbol: target.label, found: false, markdown: '', code: [], documentation: '' };
  const withheld = withheldOrigin(call.root, declarations, `the hover of ${target.label}`);
  if (withheld) {
    call.meta.warn(withheld.message);
    return { symbol: target.label, found: true, markdown: '', code: [], documentation: '', withheld: withheld.message };
  }
  const parts = splitHoverMarkdown(markdown);
  const out: HoverResult = { symbol: target.label, found: true, markdown, code: parts.code, documentation: parts.prose.replace(/\n{3,}/g, '\n\n') };
  const signature = await parsedSignature(call, target, declarations);
  if (signature) out.signature = signature;
  else if (parts.code[0]) out.signature = { text: parts.code[0] };
  return out;
}

async function declarationsAt(call: ServiceCall, file: FileContext, position: Position): Promise<Location[]> {
  const answer = await file.session.request(DefinitionRequest.type, { textDocument: { uri: file.uri }, position }, { signal: call.signal });
  return toLocations(answer);
}

/**
 * Server quirks that are noise to a reader: intelephense opens every PHP code block with `<?php`
 * and ends declarations with ` { }`; pyright separates code from docs with a `---` rule, gopls
 * (0.17+) code, doc and link with `---` rules between blank lines; gopls and intelephense leave
 * runs of blank lines. A `---` right under a text line is a heading's underline and stays.
 */
export function cleanMarkdown(text: string): string {
  return text
    .replace(/```php\n<\?php\n/g, '```php\n')
    .replace(/ \{ \}\n```/g, '\n```')
    .replace(/(```\n|\n\n)---(?:\n|$)/g, '$1')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The FunctionDescriptor of the function the target declares or resolves to (workspace only). */
async function parsedSignature(call: ServiceCall, target: ResolvedTarget, declarations: Location[]): Promise<ParsedSignature | undefined> {
  const decl = target.symbol ?? (await declarationOf(call, declarations[0]));
  if (!decl) return undefined;
  const adapter = call.adapter(decl.file);
  if (!(FUNCTION_KINDS as readonly string[]).includes(adapter.symbolKind(decl))) return undefined;
  const d = await adapter.functionDescriptor(decl);
  if (!d.signature) return undefined;
  return { text: d.signature, parameters: d.parameters, returns: d.returns };
}

async function declarationOf(call: ServiceCall, loc: Location | undefined): Promise<SymbolContext | undefined> {
  if (!loc) return undefined;
  // only a declaration whose real path is inside the workspace is read (a link out of it is external)
  const where = locate(call.root, loc.uri);
  if (where.where !== 'inside') return undefined;
  const other = await call.file(where.abs);
  return symbolAtSelection(other, loc.range.start);
}

export interface SignatureEntry {
  label: string;
  documentation?: string;
  parameters: { label: string; documentation?: string }[];
}

export interface SignatureHelpResult {
  position: string;
  signatures: SignatureEntry[];
  active_signature?: number;
  active_parameter?: number;
  /** Why no signature is shown (server-texts.ts): the called function is declared in a secret file or outside the workspace. */
  withheld?: string;
}

export async function signatureHelp(call: ServiceCall, input: { file: string; line: number; column: number }): Promise<SignatureHelpResult> {
  const target = await resolvePosition(call, input.file, input.line, input.column);
  const { file } = target;
  if (!file.session.hasCapability('signatureHelpProvider')) {
    throw new LspgateError('NOT_SUPPORTED', `${file.session.serverId} has no signature help provider`, { server: file.session.serverId });
  }
  // The caller's exact column (inside the parentheses), not the identifier resolvePosition snaps to.
  const at = toLspPosition(file.text, input.line, input.column, file.session.positionEncoding);
  const help = await file.session.request(
    SignatureHelpRequest.type,
    { textDocument: { uri: file.uri }, position: at, context: { triggerKind: 1, isRetrigger: false } },
    { signal: call.signal },
  );
  const position = `${file.relPath}:${input.line}:${input.column}`;
  const callee = calleeOffset(file.text, offsetAt(file.text, at, file.session.positionEncoding), languageProfile(file.language)?.comments.line);
  if (help?.signatures.length && callee !== undefined) {
    const declarations = await declarationsAt(call, file, positionAtOffset(file, callee));
    const withheld = withheldOrigin(call.root, declarations, `the signature help at ${position}`);
    if (withheld) {
      call.meta.warn(withheld.message);
      return { position, signatures: [], withheld: withheld.message };
    }
  }
  const gate = new TextGate(call);
  const out: SignatureHelpResult = { position, signatures: (help?.signatures ?? []).map((s) => toSignatureEntry(s, gate)) };
  if (help && out.signatures.length) {
    out.active_signature = help.activeSignature ?? 0;
    const active = help.signatures[out.active_signature];
    const param = active?.activeParameter ?? help.activeParameter;
    if (typeof param === 'number') out.active_parameter = param;
  }
  return out;
}

function positionAtOffset(file: FileContext, offset: number): Position {
  const before = file.text.slice(0, offset).split('\n');
  return toLspPosition(file.text, before.length, before[before.length - 1]!.length + 1, file.session.positionEncoding);
}

function docText(d: string | MarkupContent | undefined, gate: TextGate): string | undefined {
  if (d === undefined) return undefined;
  const t = gate.text((typeof d === 'string' ? d : d.value).trim());
  return t.length ? t : undefined;
}

/** LSP: a parameter label is a substring of the signature label, or its [start, end) offsets in it. */
function toSignatureEntry(s: SignatureInformation, gate: TextGate): SignatureEntry {
  const entry: SignatureEntry = {
    label: gate.text(s.label),
    parameters: (s.parameters ?? []).map((p) => {
      const label = gate.text(typeof p.label === 'string' ? p.label : s.label.slice(p.label[0], p.label[1]));
      const doc = docText(p.documentation, gate);
      return doc ? { label, documentation: doc } : { label };
    }),
  };
  const doc = docText(s.documentation, gate);
  if (doc) entry.documentation = doc;
  return entry;
}
