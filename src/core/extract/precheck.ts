/**
 * Text checks that run before or instead of reading the AST: can a file hold a keyword call at all
 * (`mentionsKeyword`, before parsing), and can it declare a keyword's name locally (`mayDeclare`,
 * which decides whether a program needs the scope-aware walk).
 */
import { escapeRegex } from '../escape-regex'
import type { ResolvedExtractOptions } from './options'

const PRECHECK_CACHE = new WeakMap<ResolvedExtractOptions, RegExp>()

/**
 * Cheap text test run before parsing: can this file hold a keyword call at all? A keyword's last name
 * followed by `(`, a backtick, `<` (type arguments) or `?.`, or any mention of the runtime module.
 * Files that fail it are never parsed: on real code most files do.
 */
export function mentionsKeyword(code: string, options: ResolvedExtractOptions): boolean {
  if (code.includes(options.runtimeModule)) return true
  let re = PRECHECK_CACHE.get(options)
  if (re === undefined) {
    const names = [...new Set(options.keywords.map((k) => k.path[k.path.length - 1]!))]
    re = new RegExp(`(?<![\\w$])(?:${names.map(escapeRegex).join('|')})\\s*(?:\\(|\`|<|\\?\\.)`)
    PRECHECK_CACHE.set(options, re)
  }
  return re.test(code)
}

/** JavaScript white space and line terminators, by char code. */
export function isSpace(c: number): boolean {
  return (
    c === 32 || c === 10 || c === 9 || c === 13 || c === 0xa0 || c === 0xfeff || c === 0x2028 || c === 0x2029
  )
}

/** A character that can continue an identifier (any non-ASCII one counts: conservative). */
export function isWordChar(c: number): boolean {
  return (
    (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36 || c > 127
  )
}

const mentionRegexes = new Map<string, RegExp>()

/**
 * Could `code` declare one of `names` outside the import statements? Conservative: true unless every
 * mention is a call (`t(`, `` t` ``, `t<`, `t?.(`), a member (`x.t`), or a contraction (`don't`).
 * A false positive only costs the slower scope-aware walk.
 */
export function mayDeclare(
  code: string,
  names: Iterable<string>,
  skip: { start: number; end: number }[],
): boolean {
  const list = [...names]
  if (list.length === 0) return false
  const key = list.join('\u0000')
  let re = mentionRegexes.get(key)
  if (re === undefined) {
    re = new RegExp(`(?<![\\w$])(?:${list.map(escapeRegex).join('|')})(?![\\w$])`, 'g')
    mentionRegexes.set(key, re)
  }
  re.lastIndex = 0
  for (let m = re.exec(code); m; m = re.exec(code)) {
    const at = m.index
    if (skip.some((r) => at >= r.start && at < r.end)) continue
    let before = at - 1
    while (before >= 0 && isSpace(code.charCodeAt(before))) before--
    const prev = before >= 0 ? code.charCodeAt(before) : 0
    if (prev === 46 /* . */) {
      if (code.startsWith('...', before - 2)) return true
      continue
    }
    // a contraction in prose: `don't`, `isn’t`
    if ((prev === 39 || prev === 0x2019) && before > 0 && /[A-Za-z]/.test(code[before - 1]!)) continue
    let after = at + m[0].length
    while (after < code.length && isSpace(code.charCodeAt(after))) after++
    const next = code.charCodeAt(after)
    const callLike =
      next === 40 /* ( */ ||
      next === 96 /* ` */ ||
      next === 60 /* < */ ||
      (next === 63 /* ? */ && code.charCodeAt(after + 1) === 46)
    if (!callLike) return true
    // `function t(`, `function* t(`, `class t<`: declarations that look like calls.
    if (prev === 42 /* * */) return true
    if (isWordChar(prev)) {
      let w = before
      while (w > 0 && isWordChar(code.charCodeAt(w - 1))) w--
      const word = code.slice(w, before + 1)
      if (word === 'function' || word === 'class' || word === 'interface' || word === 'type') return true
    }
  }
  return false
}
