/**
 * Developer questions over three real code bases, each with the places that answer it. Written by
 * reading the sources, before search-questions-run.ts was run on them. An answer is a file (relative
 * to the copied repo's root) and either a symbol name (matched as the trailing segment(s) of a hit's
 * qualified name, `(*T).m` read as `T.m`) or a line (a hit whose chunk spans it). Several answers
 * mean any of them will do.
 */
export interface Answer {
  file: string;
  symbol?: string;
  line?: number;
}

export interface Question {
  q: string;
  answers: Answer[];
}

const a = (file: string, ...symbols: string[]): Answer[] => symbols.map((symbol) => ({ file, symbol }));
const at = (file: string, ...lines: number[]): Answer[] => lines.map((line) => ({ file, line }));

/** zod 4 core: node_modules/zod/src/v4/core, its tests included (locales left out). */
export const ZOD: Question[] = [
  { q: 'how is a base64url string decoded into bytes', answers: a('util.ts', 'base64urlToUint8Array') },
  { q: 'encode a byte array as a lowercase hex string', answers: a('util.ts', 'uint8ArrayToHex') },
  { q: 'where are two object schemas merged into one', answers: a('util.ts', 'merge') },
  { q: 'make the optional keys of an object schema required again', answers: a('util.ts', 'required') },
  { q: 'build a nested tree of error messages from a zod error', answers: a('errors.ts', 'treeifyError') },
  { q: 'format a zod error into a nested object with _errors arrays', answers: a('errors.ts', 'formatError') },
  { q: 'detect whether a schema refers to itself recursively', answers: a('memoizer.ts', 'isRecursiveSchema', 'isRecursive') },
  {
    q: 'escape a definition name as a JSON pointer segment when extracting $defs',
    answers: a('to-json-schema.ts', 'encodeJSONPointerSegment', 'extractDefs'),
  },
  { q: 'what type name is reported for an unknown input value in an invalid type error', answers: a('util.ts', 'getParsedType', 'parsedType') },
  { q: 'define a property whose getter runs once and caches its value', answers: a('util.ts', 'defineLazy', 'cached') },
  { q: 'create a registry that attaches metadata to schemas', answers: a('registries.ts', 'registry') },
  { q: 'tests that the email regex agrees with the legacy regex', answers: at('tests/email-regex.test.ts', 44, 54, 130) },
  { q: 'test for extend with a field named constructor in the shape', answers: at('tests/extend.test.ts', 20) },
  { q: 'tests of the URL parser fallback when URL.canParse is missing', answers: at('tests/url-no-canparse.test.ts', 76, 95) },
];

/** Go 1.23's encoding/json (GOROOT/src/encoding/json as a module of its own, tests included). */
export const GO_JSON: Question[] = [
  {
    q: 'how does the JSON decoder report the byte offset of a syntax error',
    answers: [...a('scanner.go', 'SyntaxError', 'scanner.error', 'checkValid'), ...a('stream.go', 'Decoder.InputOffset')],
  },
  {
    q: 'reject unknown object keys when decoding into a struct',
    answers: [...a('stream.go', 'Decoder.DisallowUnknownFields'), ...a('decode.go', 'decodeState.object')],
  },
  { q: 'which struct field wins when embedded structs have the same JSON name', answers: a('encode.go', 'dominantField', 'typeFields') },
  { q: 'check whether a string is a valid JSON number literal', answers: a('encode.go', 'isValidNumber') },
  { q: 'decode a \\u escape with a utf-16 surrogate pair inside a string', answers: a('decode.go', 'unquoteBytes', 'getu4') },
  { q: 'indent JSON output with a prefix and an indent string', answers: a('indent.go', 'Indent', 'appendIndent') },
  { q: 'remove insignificant whitespace from JSON text', answers: a('indent.go', 'Compact', 'appendCompact') },
  { q: 'are map keys sorted when a map is encoded', answers: [...a('encode.go', 'mapEncoder.encode'), ...at('encode.go', 740)] },
  { q: 'case-insensitive matching of JSON keys to struct field names', answers: a('fold.go', 'foldName', 'appendFoldedName', 'foldRune') },
  { q: 'parse the omitempty option of a struct tag', answers: [...a('tags.go', 'parseTag', 'tagOptions.Contains'), ...a('encode.go', 'typeFields')] },
  { q: 'what counts as an empty value for omitempty', answers: a('encode.go', 'isEmptyValue') },
  {
    q: 'format floats like ES6 with an exponent for very large or very small numbers',
    answers: [...a('encode.go', 'floatEncoder.encode'), ...at('encode.go', 540)],
  },
  { q: 'read the next token from a JSON stream', answers: a('stream.go', 'Decoder.Token') },
  { q: 'test that decoding fails past the maximum nesting depth', answers: a('decode_test.go', 'TestUnmarshalMaxDepth') },
  { q: 'tests for the Encoder SetEscapeHTML option', answers: a('stream_test.go', 'TestEncoderSetEscapeHTML') },
];

/** CPython 3.11's json and email packages (/usr/lib/python3.11). */
export const PY_EMAIL_JSON: Question[] = [
  {
    q: 'where is the email header folded to the max line length',
    answers: [
      ...a('email/header.py', 'Header.encode', '_ValueFormatter.feed', '_ValueFormatter._ascii_split', '_ValueFormatter.newline'),
      ...a('email/_header_value_parser.py', '_refold_parse_tree', '_fold_as_ew'),
      ...a('email/_policybase.py', 'Compat32._fold'),
    ],
  },
  { q: 'how does the JSON decoder report a syntax error with line and column', answers: a('json/decoder.py', 'JSONDecodeError', 'JSONDecodeError.__init__') },
  { q: 'split a list of address header values into name and address pairs', answers: a('email/utils.py', 'getaddresses') },
  {
    q: 'parse an RFC 2822 date string into a datetime',
    answers: [...a('email/utils.py', 'parsedate_to_datetime'), ...a('email/_parseaddr.py', '_parsedate_tz', 'parsedate_tz')],
  },
  { q: 'generate a unique Message-ID header value', answers: a('email/utils.py', 'make_msgid') },
  { q: 'decode RFC 2231 encoded parameter values', answers: a('email/utils.py', 'decode_rfc2231', 'decode_params', 'collapse_rfc2231_value') },
  { q: 'find the preferred body part, html or plain text, of a message', answers: a('email/message.py', 'MIMEPart.get_body', 'MIMEPart._find_body') },
  { q: 'iterate over the attachments of a multipart message', answers: a('email/message.py', 'MIMEPart.iter_attachments') },
  { q: 'get the file name of an attachment from its content-disposition', answers: a('email/message.py', 'Message.get_filename') },
  { q: 'quoted-printable encode a message body with a line length limit', answers: a('email/quoprimime.py', 'body_encode') },
  {
    q: 'where does the json encoder detect circular references',
    answers: a('json/encoder.py', '_make_iterencode', '_iterencode_list', '_iterencode_dict', '_iterencode', 'JSONEncoder.iterencode'),
  },
  {
    q: 'parse a message incrementally from chunks of data as they arrive',
    answers: a('email/feedparser.py', 'FeedParser.feed', 'FeedParser', 'BytesFeedParser'),
  },
  { q: 'decode a header with encoded words into bytes and charset pairs', answers: a('email/header.py', 'decode_header') },
  { q: 'pretty print JSON from the command line', answers: a('json/tool.py', 'main') },
];
