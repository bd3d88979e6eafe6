/**
 * The C# profile: the syntax tier only (no C# server ships with lspgate). Declarations as csharp-ls
 * and OmniSharp list them: namespaces, types (classes, records, structs, interfaces, enums,
 * delegates) with their fields (one per declarator), properties, indexers (`this`), events,
 * constructors, finalizers (`~Name`), methods, operators (`operator ==`, conversions `operator T`)
 * and enum members.
 */
import type { SyntaxNode } from '../../syntax/syntax.js';
import { grammarOnlyProfile } from '../grammar-only.js';
import { type DeclaredName, queryDeclarations } from '../query-declarations.js';
import { csharpRepair } from './repair.js';

const QUERY = `
[(namespace_declaration) (file_scoped_namespace_declaration)] @namespace
[(class_declaration) (record_declaration)] @class
(struct_declaration) @struct
(interface_declaration) @interface
(enum_declaration) @enum
(delegate_declaration) @function
(method_declaration) @method
[(operator_declaration) (conversion_operator_declaration)] @method
(constructor_declaration) @constructor
(property_declaration) @property
(indexer_declaration) @property
(destructor_declaration) @method
(field_declaration (variable_declaration (variable_declarator) @field))
(event_field_declaration (variable_declaration (variable_declarator) @field))
(enum_member_declaration) @enum_member
`;

function nameOf(node: SyntaxNode): DeclaredName | undefined {
  // an indexer is named by its keyword (`this[int i]`), a finalizer by its class's name after `~`, as C# declares them
  if (node.type === 'indexer_declaration') {
    const keyword = node.children.find((c) => c?.type === 'this');
    return keyword ? { text: 'this', at: keyword.startIndex, composite: true } : undefined;
  }
  if (node.type === 'destructor_declaration') {
    const tilde = node.children.find((c) => c?.type === '~');
    const name = node.childForFieldName('name') ?? node.namedChildren.find((c) => c?.type === 'identifier');
    return tilde && name ? { text: `~${name.text}`, at: tilde.startIndex, composite: true } : undefined;
  }
  if (node.type === 'operator_declaration' || node.type === 'conversion_operator_declaration') {
    // named as Roslyn's outline names it: the keyword and what follows it (`operator ==`, `operator T` of a conversion)
    const children = node.children;
    const at = children.findIndex((c) => c?.type === 'operator');
    const what = at >= 0 ? children[at + 1] : undefined;
    return what ? { text: `operator ${what.text}`, at: children[at]!.startIndex, composite: true } : undefined;
  }
  const name = node.childForFieldName('name') ?? node.namedChildren.find((c) => c?.type === 'identifier');
  return name ? { text: name.text, at: name.startIndex } : undefined;
}

export const csharpProfile = grammarOnlyProfile({
  name: 'csharp',
  grammars: { '.cs': 'c-sharp' },
  declarations: queryDeclarations({ query: QUERY, nameOf, repair: csharpRepair }),
  tests: {
    runners: [{ runner: 'dotnet test', description: 'xUnit, NUnit and MSTest projects name test classes *Tests.cs / *Test.cs', files: /^\w+Tests?\.cs$/ }],
    directories: ['test', 'tests', 'testdata', 'fixtures'],
  },
  comment: '//',
  elision: '{ … }',
  server: {
    name: 'csharp-ls',
    install:
      'dotnet tool install --global csharp-ls, then add a servers.json entry: {"id":"csharp-ls","languages":["csharp"],"extensions":[".cs"],"command":"csharp-ls","install":"dotnet tool install --global csharp-ls"}',
  },
});
