// C++ declarations as libstdc++, V8 and OpenSSL headers write them, read through the real tree-sitter
// grammar as the syntax cataloger reads them (ids `path::Qualified.name#kind`): macros the grammar
// cannot expand where a compiler would, friends, macro calls in class bodies, and declarations the
// outline's query did not reach. Each case is what a tagger (universal-ctags) or clangd lists.
import { describe, expect, it } from 'vitest';

import { syntaxEntry } from '../../src/service/cataloging/syntax-entry.js';

async function ids(rel: string, text: string): Promise<string[]> {
  const bytes = Buffer.from(text);
  const entry = await syntaxEntry({ rel, abs: `/ws/${rel}`, root: '/ws', bytes, size: bytes.length, mtimeMs: 0 });
  return entry!.symbols.map((s) => s.symbol_id.slice(rel.length + 2));
}

describe('C++ macros after a declarator', () => {
  it('reads a member whose declarator a trailing macro follows by its own name, never the macro', async () => {
    const text = [
      'struct _Iter {',
      '  _Self&',
      '  operator++() _GLIBCXX_NOEXCEPT',
      '  { return *this; }',
      '  void',
      '  swap(basic_string& __s)',
      '  _GLIBCXX_NOEXCEPT_IF(allocator_traits<_Alloc>::is_always_equal::value);',
      '  virtual ~_Iter() _GLIBCXX_TXN_SAFE_DYN _GLIBCXX_NOTHROW;',
      '  static void* CPPGC_DEFAULT_ALIGNED Allocate(AllocationHandle&, size_t);',
      '  alignas(_S_alignment) _Tp _M_i _GLIBCXX20_INIT(_Tp());',
      '  int _M_n;',
      '};',
      '',
    ].join('\n');
    expect(await ids('bits/iter.h', text)).toEqual([
      '_Iter#struct',
      '_Iter.operator++#method',
      '_Iter.swap#method',
      '_Iter.~_Iter#method',
      '_Iter.Allocate#method',
      '_Iter._M_i#field',
      '_Iter._M_n#field',
    ]);
  });

  it('reads a class whose name follows a macro before `final` or a base clause', async () => {
    const text = [
      'namespace std {',
      '  template<typename _CharT>',
      '    class _GLIBCXX_NAMESPACE_CXX11 collate : public locale::facet',
      '    {',
      '    public:',
      '      collate(size_t __refs = 0) : facet(__refs) { }',
      '    };',
      '}',
      'class V8_EXPORT AgeTable final {',
      '  void Reset();',
      '};',
      '',
    ].join('\n');
    expect(await ids('include/collate.h', text)).toEqual([
      'std#namespace',
      'std.collate#class',
      'std.collate.collate#method',
      'AgeTable#class',
      'AgeTable.Reset#method',
    ]);
  });

  it("reads a type macro's call as a type: the functions after it stay functions", async () => {
    const text = [
      'const STACK_OF(ADMISSIONS) *get_contents(',
      '    const ADMISSION_SYNTAX *as);',
      'void set_contents(',
      '    ADMISSION_SYNTAX *as, STACK_OF(ADMISSIONS) *a);',
      'const GENERAL_NAME *get_authority(const ADMISSIONS *a);',
      '',
    ].join('\n');
    expect(await ids('include/x509v3.h', text)).toEqual(['get_contents#function', 'set_contents#function', 'get_authority#function']);
  });

  it('reads a GNU attribute on a namespace, and __extension__ before an alias', async () => {
    const text = [
      'namespace std {',
      'inline namespace __cxx11 __attribute__((__abi_tag__ ("cxx11"))) { }',
      'struct __max_size_type {',
      '  __extension__',
      '  using __rep = unsigned __int128;',
      '};',
      '}',
      '',
    ].join('\n');
    expect(await ids('bits/fs_fwd.h', text)).toEqual([
      'std#namespace',
      'std.__cxx11#namespace',
      'std.__max_size_type#struct',
      'std.__max_size_type.__rep#type',
    ]);
  });
});

describe('C++ macro calls whose arguments are no expression', () => {
  it("reads the members after calls of a macro the class defines (`_OP_(+=)`) and its `#undef`, and no condition as an object-like macro's arguments", async () => {
    const text = [
      'template<typename _CharT>',
      '  _CharT* assign(_CharT* __s, std::size_t __n, _CharT __a)',
      '  {',
      '    if _GLIBCXX17_CONSTEXPR (sizeof(_CharT) == 1)',
      '      { __builtin_memset(__s, __a, __n); }',
      '    return __s;',
      '  }',
      'template <typename _Tp>',
      '  class where_expression<bool, _Tp> : public const_where_expression<bool, _Tp>',
      '  {',
      '  public:',
      '    _GLIBCXX_SIMD_INTRINSIC where_expression(const _M& __kk, _Tp& dd)',
      '      : const_where_expression<_M, _Tp>(__kk, dd) {}',
      '#define _GLIBCXX_SIMD_OP_(__op) \\',
      '    template <typename _Up> \\',
      '      _GLIBCXX_SIMD_INTRINSIC void operator __op(_Up&& __x)&& \\',
      '      { if (_M_k) _M_value __op static_cast<_Up&&>(__x); }',
      '    _GLIBCXX_SIMD_OP_(=)',
      '    _GLIBCXX_SIMD_OP_(+=)',
      '    _GLIBCXX_SIMD_OP_(&=)',
      '    _GLIBCXX_SIMD_OP_(|=)',
      '    _GLIBCXX_SIMD_OP_(<<=)',
      '  #undef _GLIBCXX_SIMD_OP_',
      '    _GLIBCXX_SIMD_INTRINSIC void operator++() &&',
      '    { if (_M_k) ++_M_value; }',
      '    _GLIBCXX_SIMD_INTRINSIC void operator--() &&',
      '    { if (_M_k) --_M_value; }',
      '  };',
      'int after();',
      '',
    ].join('\n');
    expect(await ids('bits/simd.h', text)).toEqual([
      'assign#function',
      'where_expression<bool, _Tp>#class',
      'where_expression<bool, _Tp>.where_expression#method',
      'where_expression<bool, _Tp>.operator++#method',
      'where_expression<bool, _Tp>.operator--#method',
      'after#function',
    ]);
  });
});

describe('C++ declarations that are not what they look like', () => {
  it('lists no friend prototype (declared elsewhere), a friend defined in the class, and no return type read as a field', async () => {
    const text = [
      'struct _Bit {',
      '  friend bool operator==(const _Bit&, const _Bit&);',
      '  template<typename _Yp> friend shared_ptr<_Yp> allocate_shared(const _Yp&);',
      '  friend bool operator<(const _Bit&, const _Bit&) { return true; }',
      '  [[nodiscard]]',
      '  friend constexpr strong_ordering',
      '  operator<=>(const _Bit& __x, const _Bit& __y)',
      '  { return 0; }',
      '};',
      '',
    ].join('\n');
    expect(await ids('bits/bvector.h', text)).toEqual(['_Bit#struct', '_Bit.operator<#method', '_Bit.operator<=>#method']);
  });

  it("lists no macro's call in a class body, and keeps constructors and deduction guides, which have no return type either", async () => {
    const text = [
      'template<typename _Tp>',
      '  class queue',
      '  {',
      '    __glibcxx_class_requires(_Tp, _SGIAssignableConcept)',
      '    __glibcxx_class_requires2(_Tp, _Alloc_value_type, _SameTypeConcept)',
      '  public:',
      '#if __cplusplus < 201103L',
      '    queue(const _Tp& __c);',
      '#endif',
      '    bool empty() const;',
      '  };',
      'template<typename _Tp>',
      '  queue(_Tp) -> queue<_Tp>;',
      '',
    ].join('\n');
    expect(await ids('bits/queue.h', text)).toEqual(['queue#class', 'queue.queue#method', 'queue.empty#method', 'queue#function']);
  });
});

describe('C++ declarations the outline did not reach', () => {
  it('reads static data members defined out of line, and no `using ::abs` after a namespace macro', async () => {
    const text = [
      'namespace std _GLIBCXX_VISIBILITY(default)',
      '{',
      '_GLIBCXX_BEGIN_NAMESPACE_VERSION',
      '',
      '  using ::abs;',
      '  template<typename _CharT>',
      '    locale::id ctype<_CharT>::id;',
      '  template<typename _CharT, typename _Traits, typename _Alloc>',
      '    const typename basic_string<_CharT, _Traits, _Alloc>::size_type',
      '    basic_string<_CharT, _Traits, _Alloc>::',
      '    _Rep::_S_max_size = 4;',
      '}',
      '',
    ].join('\n');
    expect(await ids('bits/locale.h', text)).toEqual([
      'std#namespace',
      'std.ctype<_CharT>::id#field',
      'std.basic_string<_CharT, _Traits, _Alloc>::_Rep::_S_max_size#field',
    ]);
  });

  it('reads deleted and defaulted functions among declarations, and member variable templates', async () => {
    const text = [
      'namespace __cust_access {',
      '  void end(auto&) = delete;',
      '  void end(const auto&) = delete;',
      '  struct _End {',
      '    template<typename _Iter>',
      '      static constexpr bool __convertible = !is_same_v<_Iter, int>;',
      '  };',
      '}',
      '',
    ].join('\n');
    expect(await ids('bits/ranges_base.h', text)).toEqual([
      '__cust_access#namespace',
      '__cust_access.end#function',
      '__cust_access.end#function~2',
      '__cust_access._End#struct',
      '__cust_access._End.__convertible#field',
    ]);
  });
});

describe('export and visibility macros of libraries never seen (spdlog, fmt, Windows headers)', () => {
  it('reads a prototype behind a C-API macro with a trailing macro, and a function whose scope a macro precedes', async () => {
    const text = [
      'SPDLOG_API size_t thread_id() SPDLOG_NOEXCEPT;',
      'SPDLOG_API std::tm gmtime() SPDLOG_NOEXCEPT;',
      'void SPDLOG_INLINE thread_pool::post_log(int worker)',
      '{',
      '    post();',
      '}',
      'std::string SPDLOG_INLINE getenv(const char *field)',
      '{',
      '    return {};',
      '}',
      '',
    ].join('\n');
    expect(await ids('os.h', text)).toEqual(['thread_id#function', 'gmtime#function', 'thread_pool::post_log#method', 'getenv#function']);
  });

  it('reads `class MACRO name final : base` and `class MACRO("default") name` as the class, with its members', async () => {
    const text = [
      'class SPDLOG_API async_logger final : public std::enable_shared_from_this<async_logger>, public logger',
      '{',
      'public:',
      '    async_logger(std::string name, sink_ptr sink);',
      'private:',
      '    int overflow_policy_;',
      '};',
      'class VISIBILITY_MACRO("default") Named { int w; };',
      '',
    ].join('\n');
    expect(await ids('async_logger.h', text)).toEqual([
      'async_logger#class',
      'async_logger.async_logger#method',
      'async_logger.overflow_policy_#field',
      'Named#class',
      'Named.w#field',
    ]);
  });

  it('names `extern "C" __declspec(dllimport) int __stdcall Fn(` Fn, and an unnamed enum with a base type not after its type', async () => {
    const text = [
      'extern "C" __declspec(dllimport) void __stdcall OutputDebugStringA(const char *s);',
      'class Widget {',
      '  enum : std::uint8_t { kSmall = 1 };',
      '};',
      'enum : unsigned_type {',
      '  kTop = 3',
      '};',
      '',
    ].join('\n');
    expect(await ids('win.h', text)).toEqual(['OutputDebugStringA#function', 'Widget#class', 'Widget.kSmall#enum_member', 'kTop#enum_member']);
  });

  it('reads `EXPORT template <…> class name` as the class with its members, and declarations between macro-call blocks', async () => {
    const text = [
      'FMT_EXPORT template <typename Char> class basic_thing {',
      ' public:',
      '  void member_fn();',
      '  int count;',
      '};',
      'TEST(Suite, Case) {',
      '  check();',
      '}',
      'int between_tests(int x);',
      'TEST(Suite, Other) {',
      '  check();',
      '}',
      'struct after_tests { int z; };',
      '',
    ].join('\n');
    expect(await ids('thing.h', text)).toEqual([
      'basic_thing#class',
      'basic_thing.member_fn#method',
      'basic_thing.count#field',
      'between_tests#function',
      'after_tests#struct',
      'after_tests.z#field',
    ]);
  });
});
