import type { NameMapping } from './types'

/**
 * Text-level edits of ICU messages that keep the translator's spelling (printing an AST would
 * respace every plural): renaming tags and arguments, opening self-closing tags, and escaping
 * literal text of another syntax so that ICU reads it back as the same characters.
 */

const TAG = /^<(\/?)([A-Za-z0-9_-]+)\s*(\/?)>/
const ARGUMENT = /^\{(\s*)([^\s,{}]+)(\s*)(?=[,}])/
const QUOTE_OPENERS = new Set(["'", '{', '}', '<', '>', '#'])

/**
 * Names a tag where the name depends on where it stands (react-i18next numbers a `<Trans>`'s
 * elements per nesting level): called for each tag in order, `open`, `close` or `empty` (`<0/>`).
 */
export type TagRenamer = (name: string, kind: 'open' | 'close' | 'empty') => string

/**
 * Renames tags and arguments through `mapping` and turns a self-closing `<0/>` into `<0></0>` (our
 * form has no self-closing tags). A numbered name the mapping does not give is a problem, as is a
 * `</0/>`; the caller refuses the message with them. A stack tells an argument's `{` from a plural
 * branch's `{`; quoted text (`'{'`, `''`) is copied as is. `'#` is taken as a quote everywhere,
 * which ICU does only inside a plural: a message quoting `#` outside a plural is rare, and the
 * caller's parse still checks the result.
 */
export function renameIcu(
  text: string,
  mapping: NameMapping,
  onTag?: TagRenamer,
): { text: string; problems: string[] } {
  const problems: string[] = []
  const rename = (
    names: Readonly<Record<string, string>> | undefined,
    name: string,
    kind: 'tag' | 'argument',
  ): string => {
    if (!names) return name
    const found = names[name]
    if (found !== undefined) return found
    if (/^\d+$/.test(name) && !problems.some((p) => p.includes(kind === 'tag' ? `<${name}>` : `{${name}}`)))
      problems.push(
        kind === 'tag'
          ? `its tag <${name}> matches no element of our message`
          : `its placeholder {${name}} matches no value of our message`,
      )
    return name
  }
  const stack: ('message' | 'argument')[] = ['message']
  let out = ''
  let i = 0
  while (i < text.length) {
    const c = text[i]!
    const top = stack[stack.length - 1]
    if (top === 'argument') {
      if (c === '{') stack.push('message')
      else if (c === '}') stack.pop()
      out += c
      i++
      continue
    }
    if (c === "'" && QUOTE_OPENERS.has(text[i + 1] ?? '')) {
      // Copied up to the quote's end: a lone ' (a doubled '' inside stays part of the quote).
      let j = i + 1
      if (text[j] !== "'") {
        while (j < text.length && !(text[j] === "'" && text[j + 1] !== "'")) j += text[j] === "'" ? 2 : 1
      }
      out += text.slice(i, j + 1)
      i = j + 1
      continue
    }
    const rest = text.slice(i)
    const tag = c === '<' ? TAG.exec(rest) : null
    if (tag) {
      const [whole, close, name, selfClosing] = tag
      const kind = close ? 'close' : selfClosing ? 'empty' : 'open'
      const ours = onTag ? onTag(name!, kind) : rename(mapping.tags, name!, 'tag')
      if (close && selfClosing) problems.push(`its tag ${whole} is both closing and self-closing`)
      out += selfClosing ? `<${ours}></${ours}>` : `<${close}${ours}>`
      i += whole.length
      continue
    }
    const argument = c === '{' ? ARGUMENT.exec(rest) : null
    if (argument) {
      const [whole, before, name, after] = argument
      out += `{${before}${rename(mapping.arguments, name!, 'argument')}${after}`
      i += whole.length
      stack.push('argument')
      continue
    }
    if (c === '{') stack.push('argument')
    else if (c === '}' && stack.length > 1) stack.pop()
    out += c
    i++
  }
  return { text: out, problems }
}

/**
 * Literal text of another syntax (i18next's) written so that ICU reads the same characters: braces,
 * `<` and (inside a plural) `#` quoted one by one, an apostrophe doubled only where ICU would read
 * it as a quote (before one of those, another apostrophe, or at the end where syntax follows), so
 * `l'ami` stays as the translator wrote it.
 */
export function escapeIcuLiteral(text: string, inPlural: boolean): string {
  const special = (c: string | undefined): boolean =>
    c === '{' || c === '}' || c === '<' || (inPlural && c === '#')
  let out = ''
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (special(c)) {
      // One quote around the whole run of syntax characters and apostrophes: two quotes side by
      // side (`'{''}'`) would read as one quote holding an apostrophe.
      let run = ''
      for (; i < text.length && (special(text[i]) || text[i] === "'"); i++)
        run += text[i] === "'" ? "''" : text[i]!
      out += `'${run}'`
      i--
    } else if (c === "'") {
      const next = text[i + 1]
      out += next === undefined || next === "'" || special(next) || QUOTE_OPENERS.has(next) ? "''" : "'"
    } else out += c
  }
  return out
}
