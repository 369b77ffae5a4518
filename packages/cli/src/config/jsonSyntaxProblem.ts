import { printParseErrorCode, type ParseError } from 'jsonc-parser';

/** What each of the JSON parser's error codes means, in words (keyed by the code's name: the enum is const, types only). */
const PROBLEMS = new Map<string, string>([
  ['InvalidSymbol', 'unexpected text'],
  ['InvalidNumberFormat', 'a number is malformed'],
  ['PropertyNameExpected', 'expected a property name in double quotes'],
  ['ValueExpected', 'expected a value'],
  ['ColonExpected', "expected ':' after the property name"],
  ['CommaExpected', "expected ',' between two entries"],
  ['CloseBraceExpected', "expected '}' to close the object"],
  ['CloseBracketExpected', "expected ']' to close the array"],
  ['EndOfFileExpected', 'unexpected text after the end of the JSON value'],
  ['InvalidCommentToken', 'malformed comment'],
  ['UnexpectedEndOfComment', "a '/*' comment is not closed with '*/'"],
  ['UnexpectedEndOfString', 'a string is not closed with a double quote'],
  ['UnexpectedEndOfNumber', 'a number ends too early'],
  ['InvalidUnicode', "a '\\u' escape is not four hexadecimal digits"],
  ['InvalidEscapeCharacter', 'invalid escape in a string (a backslash must be doubled)'],
  ['InvalidCharacter', 'a control character inside a string (write it as an escape, e.g. \\n)'],
]);

/** Where the parser stopped in `text` (1-based line and column) and why, e.g. `line 3, column 5: expected a value`. */
export function jsonSyntaxProblem(text: string, error: ParseError): string {
  const before = text.slice(0, error.offset);
  const line = before.split('\n').length;
  const column = error.offset - (before.lastIndexOf('\n') + 1) + 1;
  const code = printParseErrorCode(error.error);
  const what = PROBLEMS.get(code) ?? 'not valid JSON here';
  const found = code === 'InvalidSymbol' && error.length > 0 ? ` ${JSON.stringify(text.slice(error.offset, error.offset + Math.min(error.length, 20)))}` : '';
  return `line ${line}, column ${column}: ${what}${found}`;
}
