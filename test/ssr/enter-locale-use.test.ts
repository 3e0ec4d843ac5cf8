import { describe, expect, it, vi } from 'vitest'
import { isServerCompiler } from '../../src/plugin/server-compiler'

/**
 * `enterLocale`, for renders with no function around them (Next.js's server components): the locale
 * entered inside one render holds for the rest of it, across awaits, and never for another render
 * running at once; the first call of a locale is its catalog's loading, which React's `use` waits on.
 */

async function fresh() {
  vi.resetModules()
  return await import('../../src/runtime/node')
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** React's `use` on what enterLocale returns: a settled promise is read at once, else it suspends. */
function isSettled(p: PromiseLike<void>): boolean {
  return (p as { status?: string }).status === 'fulfilled'
}

describe('enterLocale (server runtime)', () => {
  it('enters a locale for the rest of a render, across awaits, while other renders keep theirs', async () => {
    const rt = await fresh()
    rt._r('en-US', {
      'fr-FR': async () => ({ default: { a: 'Bonjour {name}' } }),
      'de-DE': async () => ({ default: { a: 'Hallo {name}' } }),
    })
    // The first call of a locale suspends (its catalog loads); the render runs again and enters. Each
    // call from a callback of its own: what a call enters stays there, as in a request's render.
    const entered = (locale: 'fr-FR' | 'de-DE') =>
      new Promise<{ loading: PromiseLike<void> }>((resolve) =>
        setImmediate(() => resolve({ loading: rt.enterLocale(locale) })),
      )
    const first = (await entered('fr-FR')).loading
    expect(isSettled(first)).toBe(false)
    await first
    await (await entered('de-DE')).loading
    // Each render starts from a callback of its own, as a server's request does (a socket's data, a
    // scheduled task): what it enters stays in that callback and what it schedules.
    const page = (locale: 'fr-FR' | 'de-DE', delay: number) =>
      new Promise<string>((resolve) =>
        setImmediate(() => {
          expect(isSettled(rt.enterLocale(locale))).toBe(true)
          const before = `${rt.getLocale()}:${rt._l('a', 'Hello {name}', { name: 'Ada' })}`
          void tick(delay).then(() =>
            resolve(`${before} ${rt.getLocale()}:${rt._l('a', 'Hello {name}', { name: 'Ada' })}`),
          )
        }),
      )
    const pages = await Promise.all(
      Array.from({ length: 20 }, (_, i) => page(i % 2 ? 'fr-FR' : 'de-DE', 20 - i)),
    )
    expect(pages.map((p, i) => [i % 2 ? 'fr-FR' : 'de-DE', p])).toEqual(
      pages.map((_, i) =>
        i % 2
          ? ['fr-FR', 'fr-FR:Bonjour Ada fr-FR:Bonjour Ada']
          : ['de-DE', 'de-DE:Hallo Ada de-DE:Hallo Ada'],
      ),
    )
    // Outside every render: the process's default, untouched.
    expect(rt.getLocale()).toBe('en-US')
  })

  it('rejects an unknown locale as runWithLocale does', async () => {
    const rt = await fresh()
    rt._r('en-US', { 'fr-FR': async () => ({ default: {} }) })
    expect(() => rt.enterLocale('xx-YY')).toThrow('[unplugin-tms] unknown locale "xx-YY"')
  })
})

describe('enterLocale (browser runtime)', () => {
  it("switches the page's locale before a render reads it, one promise for every render that asks meanwhile", async () => {
    vi.resetModules()
    const rt = await import('../../src/runtime/index')
    rt._r('en-US', { 'fr-FR': async () => ({ default: { a: 'Bonjour' } }) })
    expect(isSettled(rt.enterLocale('en-US'))).toBe(true)
    const first = rt.enterLocale('fr-FR')
    expect(rt.enterLocale('fr-FR')).toBe(first)
    await first
    expect([rt.getLocale(), rt._l('a', 'Hello'), isSettled(rt.enterLocale('fr-FR'))]).toEqual([
      'fr-FR',
      'Bonjour',
      true,
    ])
  })
})

describe("webpack's and rspack's server compilers get the server runtime", () => {
  it('a node target, externalsPresets.node or Next.js edge compiler: yes; a web target: no', () => {
    const cases: [unknown, boolean][] = [
      [{ target: 'node' }, true],
      [{ target: 'node18.17' }, true],
      [{ target: ['node', 'es2022'] }, true],
      [{ target: 'async-node' }, true],
      [{ target: 'web' }, false],
      [{ target: ['web', 'es2022'] }, false],
      [{ target: 'browserslist' }, false],
      [{ externalsPresets: { node: true } }, true],
      [{ name: 'edge-server', target: ['web', 'es2020'] }, true],
      [{ name: 'client', target: ['web', 'es2020'] }, false],
      [undefined, false],
    ]
    expect(cases.map(([options]) => [options, isServerCompiler(options as never)])).toEqual(cases)
  })
})
