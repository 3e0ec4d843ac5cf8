import { gzipSync } from 'node:zlib'
import { describe, expect, it, vi } from 'vitest'
import { minifiedBundle } from './helpers/bundle'

/**
 * The lazy message descriptor of the runtime: `msg(...)` untransformed (an app's unit tests) and `_m`,
 * the form the build writes; and the runtime's size budget with a descriptor in the bundle.
 */

// A fresh copy of the runtime module per test: it holds the locale state.
async function fresh() {
  vi.resetModules()
  return await import('../src/runtime/index')
}

describe('msg, untransformed', () => {
  it('formats when called, with the values of the call over the values it was given', async () => {
    const { msg } = await fresh()
    const greet = msg('Hello {name}, {count} new')
    expect(greet({ name: 'Ana', count: 3 })).toBe('Hello Ana, 3 new')
    const bound = msg('Hello {name}!', { name: 'Ana' })
    expect([bound(), `${bound}`, String(bound), bound({ name: 'Bo' })]).toEqual([
      'Hello Ana!',
      'Hello Ana!',
      'Hello Ana!',
      'Hello Bo!',
    ])
    const n = 2
    const files = msg`${n} files`
    expect(files()).toBe('2 files')
    expect(msg('{n, plural, one {# file} other {# files}}')({ n: 1 })).toBe('1 file')
  })
})

describe('_m, as the build writes it', () => {
  it('looks the message up at each call, in the locale of that moment', async () => {
    const { _l, _m, _r, setLocale } = await fresh()
    _r('en', { fr: async () => ({ default: { red: 'Rouge', hi: 'Salut {name}' } }) })
    const red = _m((values) => _l('red', 'Red', values))
    const hi = _m((values) => _l('hi', 'Hi {name}', values), { name: 'Ana' })
    expect([red(), hi()]).toEqual(['Red', 'Hi Ana'])
    await setLocale('fr')
    expect([red(), `${red}`, hi(), hi({ name: 'Bo' })]).toEqual(['Rouge', 'Rouge', 'Salut Ana', 'Salut Bo'])
  })

  it("calls every binding's read of its reactive locale (_t) at each call", async () => {
    const { _m, _t } = await fresh()
    const reads: string[] = []
    _t(() => reads.push('vue'))
    _t(() => reads.push('svelte'))
    const red = _m(() => 'Red')
    red()
    expect(reads).toEqual(['vue', 'svelte'])
  })
})

// The 1 KB budget is the runtime's with a two-argument message (test/icu/size.test.ts); `msg` is paid for
// only by an app that uses it, and stays within 64 B of that budget (1,063 B measured with the ICU fixes).
it('the runtime with a descriptor and the ICU interpreter stays within 1 KB + 64 B min+gzip', async () => {
  const repo = new URL('../', import.meta.url).pathname
  const bytes = await minifiedBundle(`import { _l, _m, setLocale } from '${repo}dist/runtime.mjs'
        const files = _m((values) => _l('k2Xq81', ["You have ",["count",4,0,{"0":"no files","one":[0," file"],"other":[0," files"]}]], values))
        setLocale('fr-FR')
        console.log(files({ count: 2 }))`)
  expect(gzipSync(bytes, { level: 9 }).length).toBeLessThanOrEqual(1024 + 64)
  // No parser: `msg` (which formats source text) is left out of a transformed bundle.
  expect(new TextDecoder().decode(bytes)).not.toContain('untransformed')
})
