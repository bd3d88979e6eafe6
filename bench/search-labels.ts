/**
 * Labelled questions for search quality: a natural-language question → the function that answers
 * it (its name, matched as the last segment of a hit's qualified symbol name). Written by reading
 * the sources, before any ranking was run on them.
 */
export interface Labelled {
  q: string;
  answer: string;
}

/** zod 4's core (node_modules/zod/src/v4/core, tests excluded). */
export const ZOD_CORE: Labelled[] = [
  { q: 'convert a base64 string to bytes', answer: 'base64ToUint8Array' },
  { q: 'convert a hex string to a byte array', answer: 'hexToUint8Array' },
  { q: 'remainder of floating point division without precision errors', answer: 'floatSafeRemainder' },
  { q: 'escape special characters for a regular expression', answer: 'escapeRegex' },
  { q: 'check whether a value is a plain object', answer: 'isPlainObject' },
  { q: 'turn a string into a url slug', answer: 'slugify' },
  { q: 'format an issue path as a dotted path string', answer: 'toDotPath' },
  { q: 'pretty print validation error messages', answer: 'prettifyError' },
  { q: 'flatten errors into form errors and field errors', answer: 'flattenError' },
  { q: 'count the unicode code points of a string', answer: 'codePointLength' },
  { q: 'make every property of an object schema optional', answer: 'partial' },
  { q: 'remove keys from an object schema', answer: 'omit' },
  { q: 'wait for all promises that are values of an object', answer: 'promiseAllObject' },
  { q: 'generate a random string', answer: 'randomString' },
];

/** CPython 3.11's json and email packages. */
export const PY_JSON_EMAIL: Labelled[] = [
  { q: 'serialize a python object to a json formatted string', answer: 'dumps' },
  { q: 'deserialize a json document read from a file', answer: 'load' },
  { q: 'escape a string as ascii-only json', answer: 'py_encode_basestring_ascii' },
  { q: 'decode a json string literal with its escape sequences', answer: 'py_scanstring' },
  { q: 'parse an email address into real name and address', answer: 'parseaddr' },
  { q: 'format a date for an email Date header', answer: 'formatdate' },
  { q: 'parse an email message from a bytes object', answer: 'message_from_bytes' },
  { q: 'encode a header value with base64', answer: 'header_encode' },
  { q: 'decode a quoted-printable header', answer: 'header_decode' },
  { q: 'attach a part to a multipart message payload', answer: 'attach' },
  { q: 'get a parameter of the content-type header', answer: 'get_param' },
  { q: 'make a unique message id header value', answer: 'make_msgid' },
];
