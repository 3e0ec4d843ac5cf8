/**
 * oxc-parser recurses on the native stack and dies with SIGSEGV on deeply nested brackets
 * (oxc-project/oxc#24375): no exception, the whole build process is gone. Measured with 0.159 on
 * Node 20: `() => (` nested 2,000 deep kills a worker thread (4 MiB stack), `(`/`[` 10,000 deep the
 * main thread. Real code stays far below 100. So a file is measured before it is parsed, and one
 * nested deeper than this is not parsed at all.
 */
export const MAX_NESTING = 500

const TAB = 9
const LF = 10
const CR = 13
const SPACE = 32
const DQUOTE = 34
const DOLLAR = 36
const SQUOTE = 39
const STAR = 42
const SLASH = 47
const BACKSLASH = 92
const BACKTICK = 96
const LBRACE = 123
const RBRACE = 125

/** After one of these (or at the start) a `/` begins a regular expression, not a division. */
const BEFORE_REGEX = new Uint8Array(128)
for (const c of '(,=:[!&|?{};+-*%<>~^') BEFORE_REGEX[c.charCodeAt(0)] = 1

/** How many `(`, `[` and `{` the text holds, counting stopped past `limit`. */
function openingBrackets(code: string, limit: number): number {
  let count = 0
  for (const bracket of ['(', '[', '{']) {
    for (let i = code.indexOf(bracket); i !== -1; i = code.indexOf(bracket, i + 1)) {
      if (++count > limit) return count
    }
  }
  return count
}

/**
 * The offset where bracket nesting first passes `limit`, or -1. Strings, comments, regular
 * expressions and template text are skipped, so brackets inside them do not count; a quoted string
 * ends at its line's end, so an apostrophe in JSX text cannot hide the rest of the file. It only has
 * to be a safe over-estimate of what the parser will recurse on, in one pass over the text.
 */
export function excessiveNesting(code: string, limit: number = MAX_NESTING): number {
  // Nesting never exceeds the number of opening brackets, which indexOf counts several times faster
  // than the walk below reads the text: most files stop here.
  if (openingBrackets(code, limit) <= limit) return -1
  const n = code.length
  let depth = 0
  // Depths at which a template literal's `${` was entered: the matching `}` resumes the template text.
  const templates: number[] = []
  // The last significant character (0 at the start): decides whether `/` starts a regex.
  let last = 0
  let i = 0
  /** From just past a backtick or a substitution's `}` to past the closing backtick or the next `${`. */
  const skipTemplateText = (): void => {
    while (i < n) {
      const c = code.charCodeAt(i)
      if (c === BACKSLASH) i += 2
      else if (c === BACKTICK) {
        i++
        return
      } else if (c === DOLLAR && code.charCodeAt(i + 1) === LBRACE) {
        i += 2
        templates.push(++depth)
        return
      } else i++
    }
  }
  while (i < n) {
    const c = code.charCodeAt(i)
    switch (c) {
      case SPACE:
      case TAB:
      case LF:
      case CR:
        i++
        continue
      case DQUOTE:
      case SQUOTE:
        i++
        for (let s = code.charCodeAt(i); i < n && s !== c && s !== LF; s = code.charCodeAt(i)) {
          i += s === BACKSLASH ? 2 : 1
        }
        i++
        last = c
        continue
      case BACKTICK:
        i++
        skipTemplateText()
        if (depth > limit) return i - 2
        last = c
        continue
      case SLASH: {
        const next = code.charCodeAt(i + 1)
        if (next === SLASH) {
          const end = code.indexOf('\n', i)
          i = end < 0 ? n : end
          continue
        }
        if (next === STAR) {
          const end = code.indexOf('*/', i + 2)
          i = end < 0 ? n : end + 2
          continue
        }
        if (last === 0 || (last < 128 && BEFORE_REGEX[last] === 1)) {
          i++
          let inClass = false
          for (let r = code.charCodeAt(i); i < n && r !== LF; r = code.charCodeAt(i)) {
            if (r === BACKSLASH) i++
            else if (r === 91) inClass = true
            else if (r === 93) inClass = false
            else if (r === SLASH && !inClass) break
            i++
          }
          i++
          last = SLASH
          continue
        }
        break
      }
      case 40: // (
      case 91: // [
      case LBRACE:
        if (++depth > limit) return i
        break
      case RBRACE:
        if (templates.length > 0 && templates[templates.length - 1] === depth) {
          templates.pop()
          depth--
          i++
          skipTemplateText()
          if (depth > limit) return i - 2
          last = BACKTICK
          continue
        }
        if (depth > 0) depth--
        break
      case 41: // )
      case 93: // ]
        if (depth > 0) depth--
        break
    }
    last = c
    i++
  }
  return -1
}
