/**
 * The quick read of a keyword call, used by the lazy strategy before it asks oxc's lazy nodes.
 *
 * The parser has already said that a call (or tagged template) starts at `start` and ends at `end`;
 * what remains is reading its callee and arguments. Asking the lazy nodes for them builds objects for
 * every argument, property and string (most of extraction's cost after parsing), while the common
 * call, `t('Save')`, `t('Hi {name}', { name })`, `t('Open', undefined, { variant: 'menu' })`,
 * `` t`Hi ${name}` ``, reads from the source text in one short pass.
 *
 * The read accepts only a small grammar it gets exactly right: a plain identifier callee directly
 * followed by `(` or a backtick; string literals with no backslash; `null`, `undefined`, decimal
 * integers; object literals of plain keys at the options position; any other argument only as a
 * range, with no comment, regular expression, template, JSX or `<`, backslash, parenthesised start or
 * non-ASCII character in it. Anything else, and any call whose text ends somewhere other than `end`, gives
 * `null`: the caller then reads the lazy nodes, so the outcome never depends on this module. It
 * builds plain nodes of the shapes nodes.ts reads (a call marked `plain: true`, its arguments a plain
 * array), handed to the one call analysis in calls.ts.
 */
import type { KeywordSpec } from './keywords'
import type { AstNode } from './nodes'

/** What the quick read found: a call of `spec`, not a keyword call at all, or "ask the parser". */
export type QuickRead = { node: AstNode; callee: AstNode; spec: KeywordSpec } | 'none' | null

const LPAREN = 40
const RPAREN = 41
const COMMA = 44
const LBRACKET = 91
const RBRACKET = 93
const LBRACE = 123
const RBRACE = 125
const SQUOTE = 39
const DQUOTE = 34
const BACKTICK = 96
const SLASH = 47
const BACKSLASH = 92
const DOT = 46
const COLON = 58
const DOLLAR = 36
const LT = 60
const MINUS = 45

function isIdentStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === DOLLAR
}

function isIdentPart(c: number): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57)
}

/** ASCII whitespace and line ends; other Unicode spaces make the read give up. */
function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9 || c === 11 || c === 12
}

function skipSpace(code: string, i: number, end: number): number {
  while (i < end && isSpace(code.charCodeAt(i))) i++
  return i
}

/** Index past the closing quote of the string literal opening at `i`, or -1. */
function stringEnd(code: string, i: number, end: number): number {
  const quote = code.charCodeAt(i)
  for (let k = i + 1; k < end; k++) {
    const c = code.charCodeAt(k)
    if (c === quote) return k + 1
    if (c === BACKSLASH || c === 10 || c === 13) return -1
  }
  return -1
}

/**
 * Index past one argument (or property value) starting at `i`, stopping before a top-level `,` or the
 * closer `close`; -1 when the text leaves the grammar above. `last` receives the index past its last
 * non-space character.
 */
function expressionEnd(code: string, i: number, end: number, close: number, last: { at: number }): number {
  let depth = 0
  let k = i
  last.at = -1
  while (k < end) {
    const c = code.charCodeAt(k)
    if (c === SQUOTE || c === DQUOTE) {
      k = stringEnd(code, k, end)
      if (k < 0) return -1
      last.at = k
      continue
    }
    // `<` would open JSX, whose text is not JavaScript (an apostrophe in it is no string); `-->` can
    // be an HTML-like comment in a script.
    if (c > 126 || c === BACKTICK || c === SLASH || c === BACKSLASH || c === LT) return -1
    if (c === MINUS && code.startsWith('-->', k)) return -1
    if (c === LPAREN || c === LBRACKET || c === LBRACE) depth++
    else if (c === RPAREN || c === RBRACKET || c === RBRACE) {
      if (depth === 0) return c === close ? k : -1
      depth--
    } else if (c === COMMA && depth === 0) return k
    if (!isSpace(c)) last.at = k + 1
    k++
  }
  return -1
}

const scratch = { at: -1 }

/** One argument or property value as a plain node: literal, `undefined`, or an opaque range. */
function valueNode(code: string, start: number, stop: number): AstNode {
  const c = code.charCodeAt(start)
  if (c === SQUOTE || c === DQUOTE) {
    if (stringEnd(code, start, stop) === stop) {
      return { type: 'StringLiteral', value: code.slice(start + 1, stop - 1), start, end: stop }
    }
  } else if (c >= 48 && c <= 57) {
    const text = code.slice(start, stop)
    if (/^(?:0|[1-9]\d*)$/.test(text))
      return { type: 'NumericLiteral', value: Number(text), start, end: stop }
  } else if (stop - start === 4 && code.startsWith('null', start)) {
    return { type: 'NullLiteral', start, end: stop }
  } else if (stop - start === 9 && code.startsWith('undefined', start)) {
    return { type: 'IdentifierReference', name: 'undefined', start, end: stop }
  }
  return { type: 'Opaque', start, end: stop }
}

/** A value the call analysis reads must be one `valueNode` recognises; an opaque one is ignored. */
function isKnown(node: AstNode | undefined): boolean {
  return node === undefined || node.type !== 'Opaque'
}

/**
 * The object literal spanning exactly [start, stop), with plain keys (identifiers or string literals)
 * and values read by `valueNode`; null for anything else (spreads, computed keys, shorthands, methods).
 */
function objectNode(code: string, start: number, stop: number): AstNode | null {
  const properties: AstNode[] = []
  let i = start + 1
  for (;;) {
    i = skipSpace(code, i, stop)
    if (i >= stop) return null
    let c = code.charCodeAt(i)
    if (c === RBRACE) {
      i++
      break
    }
    const keyStart = i
    let key: AstNode
    if (c === SQUOTE || c === DQUOTE) {
      i = stringEnd(code, i, stop)
      if (i < 0) return null
      key = { type: 'StringLiteral', value: code.slice(keyStart + 1, i - 1), start: keyStart, end: i }
    } else if (isIdentStart(c)) {
      i++
      while (i < stop && isIdentPart(code.charCodeAt(i))) i++
      key = { type: 'IdentifierName', name: code.slice(keyStart, i), start: keyStart, end: i }
    } else return null
    i = skipSpace(code, i, stop)
    if (code.charCodeAt(i) !== COLON) return null
    i = skipSpace(code, i + 1, stop)
    const valueEnd = expressionEnd(code, i, stop, RBRACE, scratch)
    if (valueEnd < 0 || scratch.at <= i) return null
    const value = valueNode(code, i, scratch.at)
    const name = key.type === 'IdentifierName' ? key.name : key.value
    // The three keys the analysis reads must hold a value it would read the same from oxc's nodes.
    if ((name === 'variant' || name === 'instruction' || name === 'maxLength') && !isKnown(value)) return null
    properties.push({ type: 'ObjectProperty', computed: false, key, value, start: keyStart, end: scratch.at })
    i = valueEnd
    c = code.charCodeAt(i)
    if (c === COMMA) i++
  }
  if (skipSpace(code, i, stop) !== stop) return null
  return { type: 'ObjectExpression', properties, start, end: stop }
}

/** The call `name(args)` spanning exactly [start, end), read from the text. */
function readCall(
  code: string,
  start: number,
  end: number,
  calleeEnd: number,
  callee: AstNode,
  spec: KeywordSpec,
): AstNode | null {
  const args: AstNode[] = []
  let i = calleeEnd + 1
  for (;;) {
    i = skipSpace(code, i, end)
    if (i >= end) return null
    const c = code.charCodeAt(i)
    if (c === RPAREN) {
      i++
      break
    }
    if (c === LPAREN || (c === DOT && code.startsWith('...', i))) return null
    const stop = expressionEnd(code, i, end, RPAREN, scratch)
    if (stop < 0 || scratch.at <= i) return null
    const argEnd = scratch.at
    const index = args.length
    let node: AstNode
    if (index === 2 && spec.defaultApi && code.charCodeAt(i) === LBRACE) {
      const object = objectNode(code, i, argEnd)
      if (object === null) return null
      node = object
    } else node = valueNode(code, i, argEnd)
    // The texts (and context) must be string literals: anything else the parser is asked about.
    if (
      (index === spec.text || index === spec.plural || index === spec.context) &&
      node.type !== 'StringLiteral'
    ) {
      return null
    }
    if (index === 2 && spec.defaultApi && node.type === 'Opaque') return null
    args.push(node)
    i = stop
    if (code.charCodeAt(i) === COMMA) i++
  }
  if (i !== end) return null
  return { type: 'CallExpression', start, end, callee, arguments: args, plain: true }
}

/** `` name`text ${a} text` `` spanning exactly [start, end); only identifiers in substitutions. */
function readTagged(code: string, start: number, end: number, tag: AstNode): AstNode | null {
  const quasis: AstNode[] = []
  const expressions: AstNode[] = []
  let i = (tag.end as number) + 1
  let textStart = i
  while (i < end) {
    const c = code.charCodeAt(i)
    // Escapes and carriage returns change the cooked text: the parser's value is asked for instead.
    if (c === BACKSLASH || c === 13) return null
    if (c === BACKTICK) {
      quasis.push({
        type: 'TemplateElement',
        value: { cooked: code.slice(textStart, i) },
        start: textStart,
        end: i,
      })
      return i + 1 === end
        ? { type: 'TaggedTemplateExpression', start, end, tag, quasi: { quasis, expressions } }
        : null
    }
    if (c === DOLLAR && code.charCodeAt(i + 1) === LBRACE) {
      quasis.push({
        type: 'TemplateElement',
        value: { cooked: code.slice(textStart, i) },
        start: textStart,
        end: i,
      })
      let k = skipSpace(code, i + 2, end)
      const nameStart = k
      if (!isIdentStart(code.charCodeAt(k))) return null
      while (k < end && isIdentPart(code.charCodeAt(k))) k++
      const nameEnd = k
      k = skipSpace(code, k, end)
      if (code.charCodeAt(k) !== RBRACE) return null
      expressions.push({
        type: 'IdentifierReference',
        name: code.slice(nameStart, nameEnd),
        start: nameStart,
        end: nameEnd,
      })
      i = k + 1
      textStart = i
      continue
    }
    i++
  }
  return null
}

/**
 * Reads the call or tagged template oxc found at [start, end) from the text, for the message
 * functions named in `direct` (local name -> spec).
 */
export function quickRead(
  code: string,
  start: number,
  end: number,
  tagged: boolean,
  direct: ReadonlyMap<string, KeywordSpec>,
): QuickRead {
  if (!isIdentStart(code.charCodeAt(start))) return null
  let i = start + 1
  while (i < end && isIdentPart(code.charCodeAt(i))) i++
  const next = code.charCodeAt(i)
  if (next !== (tagged ? BACKTICK : LPAREN)) return null
  const name = code.slice(start, i)
  const spec = direct.get(name)
  // `name(` with a name that is not a message function: whatever this node's callee is (the identifier,
  // or a larger `name(a)(b)`), it is not a keyword.
  if (spec === undefined) return 'none'
  const callee: AstNode = { type: 'IdentifierReference', name, start, end: i }
  const node = tagged ? readTagged(code, start, end, callee) : readCall(code, start, end, i, callee, spec)
  return node === null ? null : { node, callee, spec }
}
