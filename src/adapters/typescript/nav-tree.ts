/**
 * tsserver's navigation tree, built on a tree-sitter tree: a port of TypeScript's
 * services/navigationBar.ts addChildrenRecursively — which declarations become items, what each
 * item's children are read from (a function's body only, a variable's initializer only, every
 * member of a class, every child of anything else) — with the spans TypeScript gives (from the
 * first decorator or modifier, a member's trailing `;`, a type member's `;` or `,`).
 * typescript-language-server turns this tree into documentSymbol (nav-symbols.ts).
 *
 * The walk is addChildrenRecursively's order without JS recursion (walk-steps.ts): a visit asks for
 * its children with `then` and an item's container is restored by a step after them, so a file
 * nested 100,000 deep costs heap, not stack. Items (declarations) nesting deeper than the catalog
 * takes (MAX_SYNTAX_NESTING, catalog-entry.ts checkSymbolDepth) refuse the file as soon as the walk
 * reaches them: building 20,000 nested namespaces only to refuse them took minutes.
 */
import { type SyntaxNode } from '../../syntax/syntax.js';
import { NavAssignments } from './nav-assignments.js';
import { anonymousName, assignedName, assignedNameNode, cleanText, hasNavigationBarName, isIdentifierNode, nameText } from './nav-names.js';
import {
  accessorKeyword,
  declarationKind,
  declarationStart,
  endOf,
  exportKind,
  firstIdentifier,
  FUNCTION_EXPRESSIONS,
  isDefaultExport,
  isParameterPattern,
  isStatic,
  mergeable,
  NAV_KIND,
  type NavItem,
  parentOf,
  PATTERNS,
  skipOuterExpressions,
} from './nav-nodes.js';

export { NAV_KIND, type NavItem };

export class NavTreeBuilder extends NavAssignments {
  /** navigationBar.ts addChildrenRecursively's cases, by tree-sitter node type; anything else is walked through. */
  protected readonly cases = new Map<string, (n: SyntaxNode) => void>(
    Object.entries({
      method_definition: (n) => this.method(n),
      method_signature: (n) => this.methodSignature(n),
      abstract_method_signature: (n) => this.methodSignature(n),
      function_signature: (n) => this.leaf(n, NAV_KIND.function, endOf(n), 'function'),
      public_field_definition: (n) => this.property(n),
      field_definition: (n) => this.property(n),
      property_signature: (n) => {
        if (hasNavigationBarName(n.childForFieldName('name'))) this.leaf(n, NAV_KIND.property, this.memberEnd(n));
      },
      call_signature: (n) => this.signature(n),
      construct_signature: (n) => this.signature(n),
      // `{ [k in K]: V }` is a mapped type to TypeScript, not an index signature
      index_signature: (n) => (n.namedChildren.some((c) => c?.type === 'mapped_type_clause') ? undefined : this.signature(n)),
      class_declaration: (n) => this.classLike(n),
      abstract_class_declaration: (n) => this.classLike(n),
      class: (n) => this.classLike(n),
      interface_declaration: (n) => this.classLike(n),
      enum_declaration: (n) => this.enumeration(n),
      type_alias_declaration: (n) => this.leaf(n, NAV_KIND.variable, endOf(n), 'type'),
      internal_module: (n) => this.namespace(n),
      module: (n) => this.namespace(n),
      function_declaration: (n) => this.functionDeclaration(n),
      generator_function_declaration: (n) => this.functionDeclaration(n),
      arrow_function: (n) => this.functionExpression(n),
      function_expression: (n) => this.functionExpression(n),
      function: (n) => this.functionExpression(n),
      generator_function: (n) => this.functionExpression(n),
      variable_declarator: (n) => this.declarator(n, declarationKind(n)),
      pair: (n) => this.pair(n),
      shorthand_property_identifier: (n) => {
        if (parentOf(n)?.type === 'object')
          this.open({ name: nameText(n), lspKind: NAV_KIND.property, start: n.startIndex, end: endOf(n), nameAt: n.startIndex, children: [] }, () => undefined);
      },
      spread_element: (n) => this.spread(n),
      export_statement: (n) => this.exportStatement(n),
      ambient_declaration: (n) => this.ambient(n),
      import_statement: () => undefined,
      import_alias: () => undefined,
      decorator: () => undefined,
      for_in_statement: (n) => this.forIn(n),
      catch_clause: (n) => this.catchClause(n),
      assignment_expression: (n) => this.assignment(n),
      // a parameter's pattern declares variables; an assignment's is an object literal to TypeScript
      object_pattern: (n) => (isParameterPattern(n) ? this.pattern(n, NAV_KIND.variable) : this.assignmentPattern(n)),
      array_pattern: (n) => (isParameterPattern(n) ? this.pattern(n, NAV_KIND.variable) : this.assignmentPattern(n)),
    } satisfies Record<string, (n: SyntaxNode) => void>),
  );

  private methodSignature(n: SyntaxNode): void {
    const name = n.childForFieldName('name');
    // `constructor(a: string);` — an overload of the constructor (or a `declare class`'s only one): TypeScript's Constructor node
    if (parentOf(n)?.type === 'class_body' && name?.text === 'constructor' && name.type === 'property_identifier') {
      this.parent.children.push({
        name: 'constructor',
        lspKind: NAV_KIND.constructor,
        start: declarationStart(n),
        end: endOf(n),
        children: [],
        ...mergeable(n, 'constructor'),
      });
      return;
    }
    if (hasNavigationBarName(name)) this.leaf(n, NAV_KIND.method, this.memberEnd(n), `method${isStatic(n) ? ' static' : ''}`);
  }

  private method(n: SyntaxNode): void {
    const name = n.childForFieldName('name');
    const inClass = parentOf(n)?.type === 'class_body';
    const start = declarationStart(n);
    if (inClass && name?.text === 'constructor' && name.type === 'property_identifier') {
      this.open({ name: 'constructor', lspKind: NAV_KIND.constructor, start, end: endOf(n), children: [], ...mergeable(n, 'constructor') }, () =>
        this.visitNode(n.childForFieldName('body')),
      );
      this.steps.then(() => this.parameterProperties(n));
      return;
    }
    if (!hasNavigationBarName(name)) return;
    const accessor = accessorKeyword(n);
    const merge = `${accessor ?? 'method'}${isStatic(n) ? ' static' : ''}`;
    this.open(
      { name: nameText(name!), lspKind: NAV_KIND.method, start, end: this.memberEnd(n), nameAt: name!.startIndex, children: [], ...mergeable(n, merge) },
      () => this.visitNode(n.childForFieldName('body')),
    );
  }

  /** Constructor parameters with an accessibility or readonly modifier are properties of the class. */
  private parameterProperties(ctor: SyntaxNode): void {
    const params = ctor.childForFieldName('parameters');
    for (const p of params?.namedChildren ?? []) {
      if (!p || (p.type !== 'required_parameter' && p.type !== 'optional_parameter')) continue;
      if (!p.children.some((c) => c?.type === 'accessibility_modifier' || c?.type === 'readonly' || c?.type === 'override_modifier')) continue;
      const pattern = p.childForFieldName('pattern');
      if (!pattern || !isIdentifierNode(pattern)) continue;
      this.parent.children.push({
        name: nameText(pattern),
        lspKind: NAV_KIND.property,
        start: p.startIndex,
        end: p.endIndex,
        nameAt: pattern.startIndex,
        children: [],
      });
    }
  }

  private property(n: SyntaxNode): void {
    const name = n.childForFieldName('name') ?? n.childForFieldName('property');
    if (!hasNavigationBarName(name)) return;
    this.open(
      {
        name: nameText(name!),
        lspKind: NAV_KIND.property,
        start: declarationStart(n),
        end: this.memberEnd(n),
        nameAt: name!.startIndex,
        children: [],
        ...mergeable(n, `property${isStatic(n) ? ' static' : ''}`),
      },
      () => this.initializer(n.childForFieldName('value')),
    );
  }

  private signature(n: SyntaxNode): void {
    const name = n.type === 'call_signature' ? '()' : n.type === 'construct_signature' ? 'new()' : '[]';
    this.parent.children.push({ name, lspKind: NAV_KIND.variable, start: n.startIndex, end: this.memberEnd(n), children: [], ...mergeable(n, n.type) });
  }

  private classLike(n: SyntaxNode): void {
    const isInterface = n.type === 'interface_declaration';
    const own = n.childForFieldName('name');
    const assigned = own ? undefined : n.type === 'class' ? assignedName(n) : undefined;
    const named = own ?? assigned;
    const name = named ? nameText(named) : isDefaultExport(n) ? 'default' : anonymousName(n);
    const item: NavItem = { name, lspKind: isInterface ? NAV_KIND.interface : NAV_KIND.class, start: declarationStart(n), end: endOf(n), children: [] };
    if (named) item.nameAt = named.startIndex;
    if (!named && !isDefaultExport(n)) item.anonymous = true;
    if (n.type !== 'class') Object.assign(item, mergeable(n, isInterface ? 'interface' : 'class'));
    this.open(item, () => this.members(n.childForFieldName('body')));
  }

  protected members(body: SyntaxNode | null): void {
    for (const m of body?.namedChildren ?? []) if (m && m.type !== 'decorator') this.visit(m);
  }

  private enumeration(n: SyntaxNode): void {
    const name = n.childForFieldName('name');
    const item: NavItem = {
      name: name ? nameText(name) : '<unknown>',
      lspKind: NAV_KIND.enum,
      start: declarationStart(n),
      end: endOf(n),
      children: [],
      ...mergeable(n, 'enum'),
    };
    if (name) item.nameAt = name.startIndex;
    this.open(item, () => {
      for (const m of n.childForFieldName('body')?.namedChildren ?? []) {
        const key = m?.type === 'enum_assignment' ? m.childForFieldName('name') : m;
        if (!m || !key || key.type === 'computed_property_name' || m.type === 'comment') continue;
        this.parent.children.push({
          name: nameText(key),
          lspKind: NAV_KIND.constant,
          start: m.startIndex,
          end: m.endIndex,
          nameAt: key.startIndex,
          children: [],
        });
      }
    });
  }

  private namespace(n: SyntaxNode): void {
    const name = n.childForFieldName('name');
    const text = name ? cleanText(name.type === 'nested_identifier' ? name.text.replace(/\s+/g, '') : name.text) : '<unknown>';
    const item: NavItem = {
      name: text,
      lspKind: NAV_KIND.module,
      start: declarationStart(n),
      end: endOf(n),
      children: [],
      ...mergeable(n, `module ${n.childForFieldName('body') ? 'body' : 'none'}`),
    };
    if (name) item.nameAt = name.type === 'nested_identifier' ? firstIdentifier(name).startIndex : name.startIndex;
    this.open(item, () => this.visitNode(n.childForFieldName('body')));
  }

  private functionDeclaration(n: SyntaxNode): void {
    const name = n.childForFieldName('name');
    if (name) this.functions.add(name.text);
    const item: NavItem = {
      name: name ? nameText(name) : 'default',
      lspKind: NAV_KIND.function,
      start: declarationStart(n),
      end: endOf(n),
      children: [],
      ...mergeable(n, 'function'),
    };
    if (name) item.nameAt = name.startIndex;
    this.open(item, () => this.visitNode(n.childForFieldName('body')));
  }

  private functionExpression(n: SyntaxNode): void {
    const own = n.childForFieldName('name');
    const named = own ? { node: own, text: nameText(own) } : assignedNameNode(n);
    const item: NavItem = { name: named ? named.text : anonymousName(n), lspKind: NAV_KIND.function, start: n.startIndex, end: endOf(n), children: [] };
    if (named) item.nameAt = named.node.startIndex;
    else if (item.name === '<function>') item.anonymous = true;
    this.open(item, () => this.visitNode(n.childForFieldName('body')));
  }

  private declarator(n: SyntaxNode, lspKind: number): void {
    const name = n.childForFieldName('name');
    if (!name) return;
    if (PATTERNS.has(name.type)) return this.pattern(name, lspKind);
    this.open({ name: nameText(name), lspKind, start: n.startIndex, end: endOf(n), nameAt: name.startIndex, children: [] }, () =>
      this.initializer(n.childForFieldName('value')),
    );
  }

  /** The binding elements of a destructuring pattern: each named one is an item of the declaration's kind (one step each, in order). */
  private pair(n: SyntaxNode): void {
    const key = n.childForFieldName('key');
    // a property assignment is listed whatever its name (hasNavigationBarName is for class and type members)
    if (parentOf(n)?.type !== 'object' || !key) return this.visitAll(n);
    const value = n.childForFieldName('value');
    const fn = !!value && FUNCTION_EXPRESSIONS.has(value.type);
    this.open(
      {
        name: nameText(key!),
        lspKind: fn ? NAV_KIND.method : NAV_KIND.property,
        start: n.startIndex,
        end: endOf(n),
        nameAt: key!.startIndex,
        children: [],
        ...mergeable(n, 'pair'),
      },
      () => this.initializer(value),
    );
  }

  private spread(n: SyntaxNode): void {
    if (parentOf(n)?.type !== 'object') return this.visitAll(n);
    const expr = n.namedChildren[0];
    const named = expr?.type === 'identifier' ? expr : undefined;
    this.parent.children.push({
      name: named ? named.text : '<unknown>',
      lspKind: NAV_KIND.property,
      start: n.startIndex,
      end: endOf(n),
      ...(named ? { nameAt: named.startIndex } : {}),
      children: [],
    });
  }

  private exportStatement(n: SyntaxNode): void {
    const declaration = n.childForFieldName('declaration');
    if (declaration) return this.visit(declaration);
    const value = n.childForFieldName('value');
    if (!value) {
      // `export = x`: an expression after `=`
      const eq = n.children.some((c) => c?.type === '=');
      const expr = eq ? n.namedChildren.find((c) => c?.type !== 'comment' && c?.type !== 'decorator') : undefined;
      if (expr) this.exportAssignment(n, expr, 'export=');
      return;
    }
    if (FUNCTION_EXPRESSIONS.has(value.type) && value.type !== 'arrow_function' && !value.childForFieldName('name')) {
      // `export default function () {}` is a function declaration named `default` to TypeScript
      this.open({ name: 'default', lspKind: NAV_KIND.function, start: n.startIndex, end: endOf(n), children: [], ...mergeable(value, 'function') }, () =>
        this.visitNode(value.childForFieldName('body')),
      );
      return;
    }
    if (value.type === 'class') return this.classLike(value);
    this.exportAssignment(n, value, 'default');
  }

  /** navigationBar.ts ExportAssignment: `export default <expression>` / `export = <expression>`. */
  private exportAssignment(n: SyntaxNode, value: SyntaxNode, name: string): void {
    const expr = skipOuterExpressions(value);
    const item: NavItem = { name, lspKind: exportKind(expr), start: n.startIndex, end: endOf(n), children: [] };
    if (expr.type === 'object' || expr.type === 'call_expression' || expr.type === 'class')
      this.open(item, () => (expr.type === 'class' ? this.members(expr.childForFieldName('body')) : this.visit(expr)));
    else if (FUNCTION_EXPRESSIONS.has(expr.type)) this.open(item, () => this.visitNode(expr.childForFieldName('body')));
    else this.parent.children.push(item);
  }

  private ambient(n: SyntaxNode): void {
    const global = n.children.find((c) => c?.type === 'global');
    if (global) {
      const body = n.namedChildren.find((c) => c?.type === 'statement_block');
      this.open(
        {
          name: 'global',
          lspKind: NAV_KIND.module,
          start: declarationStart(n),
          end: endOf(n),
          nameAt: global.startIndex,
          children: [],
          ...mergeable(n, 'module body'),
        },
        () => this.visitNode(body),
      );
      return;
    }
    this.visitAll(n);
  }

  private forIn(n: SyntaxNode): void {
    const kind = n.childForFieldName('kind')?.type;
    const left = n.childForFieldName('left');
    if (kind && left) {
      const lspKind = kind === 'const' ? NAV_KIND.constant : NAV_KIND.variable;
      if (PATTERNS.has(left.type)) this.pattern(left, lspKind);
      else if (isIdentifierNode(left)) this.binding(left, left, lspKind, null);
    }
    for (const c of n.namedChildren) if (c && !c.equals(left!)) this.visit(c);
  }

  private catchClause(n: SyntaxNode): void {
    const param = n.childForFieldName('parameter');
    const type = n.childForFieldName('type');
    if (param && PATTERNS.has(param.type)) this.pattern(param, NAV_KIND.variable);
    else if (param && isIdentifierNode(param)) {
      // TypeScript's variable declaration `e: unknown` takes its type annotation
      this.open(
        {
          name: nameText(param),
          lspKind: NAV_KIND.variable,
          start: param.startIndex,
          end: type?.endIndex ?? param.endIndex,
          nameAt: param.startIndex,
          children: [],
        },
        () => undefined,
      );
    }
    this.visitNode(n.childForFieldName('body'));
  }
}
