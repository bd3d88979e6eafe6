// baseNames: which names of a declaration header find_patterns asks the server about.
import { describe, expect, it } from 'vitest';
import { baseNames } from '../../src/analysis/patterns/patterns.js';

describe('baseNames', () => {
  it('TypeScript: extends / implements outside generic arguments', () => {
    expect(baseNames('export class Circle implements Shape {', 'typescript')).toEqual(['Shape']);
    expect(baseNames('export interface $ZodString<Input = unknown> extends $ZodType<string, Input, Internals<T extends X ? A : B>> {', 'typescript')).toEqual(['$ZodType']);
    expect(baseNames('class A<T extends Base> extends React.Component<P> implements I, J {', 'typescript')).toEqual(['Component', 'I', 'J']);
    expect(baseNames('export class Plain {', 'typescript')).toEqual([]);
  });

  it('Python: parenthesised bases after decorators, not keywords or subscripts', () => {
    expect(baseNames('@dataclass class Circle(Shape):', 'python')).toEqual(['Shape']);
    expect(baseNames('class M(abc.ABC, Generic[T], metaclass=Meta):', 'python')).toEqual(['ABC', 'Generic']);
    expect(baseNames('class Plain:', 'python')).toEqual([]);
  });

  it('PHP: namespaced names count by their last part', () => {
    expect(baseNames('class Post extends \\Illuminate\\Database\\Eloquent\\Model implements Greets, \\JsonSerializable', 'php')).toEqual(['Model', 'Greets', 'JsonSerializable']);
  });
});
