import { describe, expect, test } from 'vitest'
import { checkIcuTranslation, tagPathsOf } from '../../src/core/icu/check'
import { type CompiledMessage, compileMessage } from '../../src/core/icu/compile'
import { parseIcu } from '../../src/core/icu/parse'
import { pseudoLocalize } from '../../src/core/model/pseudo'
import type { Branch, Part } from '../../src/runtime/icu'
import { CORPUS } from './corpus'

/** The compiled form with every literal replaced by a mark: what must survive pseudo-localization. */
function skeleton(form: CompiledMessage | Branch): unknown {
  if (typeof form === 'string') return 'T'
  return form.map((p: Part) => {
    if (typeof p === 'string') return 'T'
    if (p === 0 || p.length < 3 || p[1] === 1 || p[1] === 2) return p
    if (p[1] === 6) return [p[0], 6, skeleton(p[2])]
    const branches = (p[1] === 3 ? p[2] : p[3]) as Record<string, Branch>
    const shaped = Object.fromEntries(Object.entries(branches).map(([k, v]) => [k, skeleton(v)]))
    return p[1] === 3 ? [p[0], 3, shaped] : [p[0], p[1], p[2], shaped]
  })
}

/** Every literal of a compiled form, in order. */
function literals(form: CompiledMessage | Branch): string[] {
  if (typeof form === 'string') return [form]
  return form.flatMap((p: Part) => {
    if (typeof p === 'string') return [p]
    if (p === 0 || p.length < 3 || p[1] === 1 || p[1] === 2) return []
    if (p[1] === 6) return literals(p[2])
    return Object.values((p[1] === 3 ? p[2] : p[3]) as Record<string, Branch>).flatMap(literals)
  })
}

describe('pseudo-localization of ICU messages', () => {
  const messages = CORPUS.map((m) => m.source).filter((s) => /plural|select|'/.test(s))

  test.each(messages)('%s keeps its structure and changes every branch', (source) => {
    const pseudo = pseudoLocalize(source, 'en-XA')
    // The same arguments, kinds, selectors, offsets, `#` and styles: a valid translation of the source.
    expect(checkIcuTranslation(source, pseudo, 'en-US')).toMatchObject({ ok: true, warnings: [] })
    const before = compileMessage(source)
    const after = compileMessage(pseudo)
    // Brackets and padding are literals at the ends; between them, the same shape.
    const inner = (form: CompiledMessage): unknown[] => {
      const shape = [...(skeleton(typeof form === 'string' ? [form] : form) as unknown[])]
      while (shape[0] === 'T') shape.shift()
      while (shape[shape.length - 1] === 'T') shape.pop()
      return shape
    }
    expect(inner(after)).toEqual(inner(before))
    const lettered = literals(before).filter((l) => /[A-Za-z]/.test(l))
    const changed = literals(after).filter((l) => /[A-Za-z]/.test(l) && !lettered.includes(l))
    expect(lettered.length).toBeGreaterThan(0)
    for (const l of lettered) expect(literals(after)).not.toContain(l)
    expect(changed.length).toBeGreaterThan(0)
  })

  test('quoted text is literal text: accented, its braces and apostrophes kept', () => {
    expect(pseudoLocalize("It''s '{'literal'}' for {name}", 'en-XA')).toMatch(
      /^\[Îţ''š '\{'ļîţéŕáļ'\}' ƒöŕ \{name\}[ a-z]*\]$/,
    )
    expect(compileMessage(pseudoLocalize("{n, plural, one {'#' # x '{y}'} other {#}}", 'en-XA'))).toEqual([
      '[',
      ['n', 4, 0, { one: ['# ', 0, ' ẋ {ý}'], other: [0] }],
      expect.stringMatching(/^[ a-z]*\]$/),
    ])
  })

  const TAGGED = [
    'Read the <link>terms</link> now',
    '<link>the <b>new</b> terms</link> for {name}, <i></i>!',
    '{count, plural, one {<b>#</b> file} other {<b>#</b> files}} in <link>the folder</link>',
    'Read <0>the <1>new</1> terms</0>, <my-tag_2>x</my-tag_2>',
  ]
  test.each(TAGGED.flatMap((source) => ['en-XA', 'ar-XB'].map((locale) => [locale, source])))(
    '%s keeps the tags of %s intact',
    (locale, source) => {
      const pseudo = pseudoLocalize(source, locale as 'en-XA' | 'ar-XB')
      expect(checkIcuTranslation(source, pseudo, 'en-US')).toMatchObject({ ok: true, warnings: [] })
      const tags = (text: string): string[] => {
        const parsed = parseIcu(text)
        if (!parsed.ok) throw new Error(parsed.problem)
        return [...tagPathsOf(parsed.ast)].sort()
      }
      expect(tags(pseudo)).toEqual(tags(source))
      // Each tag as written, in order: nothing inside `<...>` is accented or reversed.
      expect(pseudo.match(/<\/?[\w-]+>/g)).toEqual(source.match(/<\/?[\w-]+>/g))
    },
  )

  test('a numbered tag is a tag, as a named one is: ar-XB reverses the words inside it, not the tag', () => {
    expect(pseudoLocalize('Read <0>terms</0> now', 'ar-XB')).toBe(
      '\u200f\u202eRead\u202c <0>\u202eterms\u202c</0> \u202enow\u202c\u200f',
    )
    expect(pseudoLocalize('Read <b>terms</b> now', 'ar-XB')).toBe(
      '\u200f\u202eRead\u202c <b>\u202eterms\u202c</b> \u202enow\u202c\u200f',
    )
  })
})
