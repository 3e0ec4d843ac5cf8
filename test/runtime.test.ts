import { describe, expect, it, vi } from 'vitest'
import { compileMessage } from '../src/core/icu/compile'

// A fresh copy of the runtime module per test: it holds the locale state.
async function fresh() {
  vi.resetModules()
  return await import('../src/runtime/index')
}

describe('runtime, untransformed', () => {
  it('interpolates named, indexed and tagged-template values as text', async () => {
    const { t } = await fresh()
    expect(t('Hello {name}, {count} new', { name: 'Ana', count: 3 })).toBe('Hello Ana, 3 new')
    expect(t('{0} of {1}', [1, 2])).toBe('1 of 2')
    // The types ask for the values (src/runtime/types.ts); at run time a missing one prints nothing, as
    // in a build (docs/messages-icu.md, "Where it differs from intl-messageformat"), inherited names too.
    // @ts-expect-error no `missing`, no `toString`
    expect(t('Keep {missing} and {toString}', { a: 1 })).toBe('Keep  and ')
    // @ts-expect-error no values
    expect(t('No values {x}')).toBe('No values {x}')
    const name = '$& ${1} <b>'
    expect(t`Hi ${name}!`).toBe('Hi $& ${1} <b>!')
    expect(t('Say {v}', { v: '$1 {v}' })).toBe('Say $1 {v}')
  })

  it('accepts any locale when no catalog was registered, keeping the source text', async () => {
    const { t, setLocale, getLocale } = await fresh()
    await setLocale('fr-FR')
    expect(getLocale()).toBe('fr-FR')
    expect(t('Hello')).toBe('Hello')
  })
})

describe('runtime, as the plugin drives it', () => {
  it('loads a catalog per locale, falls back to the source text and notifies listeners', async () => {
    const rt = await fresh()
    const loads: string[] = []
    rt._r('en-US', {
      'fr-FR': async () => {
        loads.push('fr-FR')
        return { default: { a: 'Bonjour {name} !', e: '' } }
      },
      'de-DE': async () => {
        loads.push('de-DE')
        return { default: {} }
      },
    })
    const seen: string[] = []
    const off = rt.onLocaleChange((l) => seen.push(l))
    expect(rt.getLocale()).toBe('en-US')
    expect(rt._l('a', 'Hello {name}!', { name: 'Ana' })).toBe('Hello Ana!')
    await rt.setLocale('fr-FR')
    expect(rt._l('a', 'Hello {name}!', { name: 'Ana' })).toBe('Bonjour Ana !')
    expect(rt._l('b', 'Not translated')).toBe('Not translated')
    expect(rt._l('e', 'Empty translation')).toBe('Empty translation')
    rt._u('fr-FR', { a: 'Salut {name} !' })
    expect(rt._l('a', 'Hello {name}!', { name: 'Ana' })).toBe('Salut Ana !')
    rt._u('de-DE', { a: 'ignored: not the current locale' })
    expect(rt._l('a', 'Hello {name}!', { name: 'Ana' })).toBe('Salut Ana !')
    await rt.setLocale('en-US')
    expect(rt._l('a', 'Hello {name}!', { name: 'Ana' })).toBe('Hello Ana!')
    off()
    await rt.setLocale('de-DE')
    expect(seen).toEqual(['fr-FR', 'fr-FR', 'en-US'])
    expect(loads).toEqual(['fr-FR', 'de-DE'])
    await expect(rt.setLocale('xx-YY')).rejects.toThrow('[unplugin-tms] unknown locale "xx-YY"')
  })

  it("rejects Object.prototype's names as unknown locales, as any other", async () => {
    const rt = await fresh()
    rt._r('en-US', { 'fr-FR': async () => ({ default: { a: 'fr' } }) })
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      await expect(rt.setLocale(name)).rejects.toThrow(new Error(`[unplugin-tms] unknown locale "${name}"`))
    }
    expect(rt.getLocale()).toBe('en-US')
  })

  it('lets the later of two overlapping switches win', async () => {
    const rt = await fresh()
    let release!: () => void
    const slow = new Promise<void>((r) => {
      release = r
    })
    rt._r('en-US', {
      'fr-FR': async () => {
        await slow
        return { default: { a: 'fr' } }
      },
      'de-DE': async () => ({ default: { a: 'de' } }),
    })
    const first = rt.setLocale('fr-FR')
    await rt.setLocale('de-DE')
    release()
    await first
    expect(rt.getLocale()).toBe('de-DE')
    expect(rt._l('a', 'src')).toBe('de')
  })

  it('sourceCatalog: the source locale has a loader of its own, and a lookup before any catalog gives its id', async () => {
    const rt = await fresh()
    const loads: string[] = []
    rt._r('en-US', {
      'en-US': async () => {
        loads.push('en-US')
        return {
          default: {
            a: 'Hello {name}!',
            p: compileMessage('{count, plural, one {# item} other {# items}}', 'en-US'),
          },
        }
      },
      'fr-FR': async () => {
        loads.push('fr-FR')
        return { default: { a: 'Bonjour {name} !', p: 'fr' } }
      },
    })
    expect(rt.getLocales()).toEqual(['en-US', 'fr-FR'])
    expect(rt.getLocale()).toBe('en-US')
    // Before the first setLocale: no catalog, no text at the site, the id shows and nothing throws. The
    // app rendered before it asked for a locale: the lookup starts the load of the source catalog.
    const changed = new Promise<string>((resolve) => {
      const off = rt.onLocaleChange((locale) => {
        off()
        resolve(locale)
      })
    })
    expect(rt._l('a')).toBe('a')
    expect(rt._l('a', 0, { name: 'Ana' })).toBe('a')
    expect(await changed).toBe('en-US')
    expect(loads).toEqual(['en-US'])
    expect(rt._l('a', 0, { name: 'Ana' })).toBe('Hello Ana!')
    expect(rt._l('p', 0, { count: 2 })).toBe('2 items')
    // An id no catalog holds (a module built after the catalog) also shows as its id.
    expect(rt._l('unknown')).toBe('unknown')
    await rt.setLocale('fr-FR')
    expect(rt._l('a', 0, { name: 'Ana' })).toBe('Bonjour Ana !')
    await rt.setLocale('en-US')
    // Loaded again: the browser caches the imported chunk, the runtime keeps no catalog but the current.
    expect(loads).toEqual(['en-US', 'fr-FR', 'en-US'])
    expect(rt._l('a', 0, { name: 'Bo' })).toBe('Hello Bo!')
  })

  it('sourceCatalog: a lookup while the first switch is under way loads no other catalog', async () => {
    const rt = await fresh()
    const loads: string[] = []
    rt._r('en-US', {
      'en-US': async () => {
        loads.push('en-US')
        return { default: { a: 'Hello' } }
      },
      'fr-FR': async () => {
        loads.push('fr-FR')
        return { default: { a: 'Bonjour' } }
      },
    })
    const switching = rt.setLocale('fr-FR')
    expect(rt._l('a')).toBe('a')
    await switching
    expect(rt._l('a')).toBe('Bonjour')
    expect(loads).toEqual(['fr-FR'])
  })
})
