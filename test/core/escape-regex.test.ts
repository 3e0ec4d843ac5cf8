import { expect, it } from 'vitest'
import { escapeRegex } from '../../src/core/escape-regex'

it('escapeRegex makes a pattern that matches exactly its text', () => {
  const text = 'a.b*c+d?e^f$g{h}i(j)k|l[m]n\\o'
  expect(escapeRegex(text)).toBe('a\\.b\\*c\\+d\\?e\\^f\\$g\\{h\\}i\\(j\\)k\\|l\\[m\\]n\\\\o')
  expect(new RegExp(`^${escapeRegex(text)}$`).test(text)).toBe(true)
  expect(new RegExp(escapeRegex('a.c')).test('abc')).toBe(false)
  expect(escapeRegex('t_x-1/é')).toBe('t_x-1/é')
})
