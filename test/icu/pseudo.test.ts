import { describe, expect, test } from 'vitest'
import { checkIcuTranslation } from '../../src/core/icu/check'
import { type CompiledMessage, compileMessage } from '../../src/core/icu/compile'
import { pseudoLocalize } from '../../src/core/pseudo'
import type { Branch, Part } from '../../src/runtime/icu'
import { CORPUS } from './corpus'

/** The compiled form with every literal replaced by a mark: what must survive pseudo-localization. */
function skeleton(form: CompiledMessage | Branch): unknown {
  if (typeof form === 'string') return 'T'
  return form.map((p: Part) => {
    if (typeof p === 'string') return 'T'
    if (p === 0 || p.length < 3 || p[1] === 1 || p[1] === 2) return p
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
})
