import { describe, expect, it, vi } from 'vitest'
import type { LocaleSources } from '../src/runtime/index'
import { matchLocale } from '../src/runtime/negotiate'

// A fresh copy of the runtime per test: it holds the configured locales and the listeners.
async function fresh() {
  vi.resetModules()
  const rt = await import('../src/runtime/index')
  const none = async () => ({ default: {} })
  rt._r('en', { fr: none, 'de-CH': none, 'pt-BR': none, 'en-XA': none })
  return rt
}

/** The page's objects, faked: a cookie jar as document.cookie behaves, a storage, a navigator. */
function page(init: {
  path?: string
  search?: string
  cookie?: string
  stored?: string
  languages?: string[]
}) {
  const jar = new Map<string, string>()
  for (const pair of (init.cookie ?? '').split(';').filter(Boolean)) {
    const [k, v] = pair.split('=') as [string, string]
    jar.set(k.trim(), v)
  }
  const written: string[] = []
  const store = new Map<string, string>(init.stored ? [['lang', init.stored]] : [])
  const sources = {
    location: { pathname: init.path ?? '/', search: init.search ?? '' },
    document: {
      get cookie() {
        return [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
      },
      set cookie(line: string) {
        written.push(line)
        const [pair] = line.split(';') as [string]
        const at = pair.indexOf('=')
        jar.set(pair.slice(0, at), pair.slice(at + 1))
      },
    },
    storage: {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    },
    navigator: { languages: init.languages ?? [] },
  } satisfies LocaleSources
  return { sources, written, store }
}

describe('getLocales', () => {
  it('lists the source locale, then each locale the build registered a catalog for', async () => {
    const rt = await fresh()
    expect(rt.getLocales()).toEqual(['en', 'fr', 'de-CH', 'pt-BR', 'en-XA'])
  })

  it('is empty untransformed, where no build registered any', async () => {
    vi.resetModules()
    const rt = await import('../src/runtime/index')
    expect(rt.getLocales()).toEqual([])
  })
})

describe('matchLocale', () => {
  const locales = ['en', 'fr', 'de-CH', 'pt-BR', 'en-XA']
  it('matches the same tag in any case, then the language, then a locale of that language', () => {
    const wanted = ['fr', 'FR', 'de-ch', 'de_CH', 'fr-CA', 'de', 'de-DE', 'pt', 'en-GB', 'es', '', 'x-y-z']
    expect(wanted.map((w) => matchLocale(w, locales))).toEqual([
      'fr',
      'fr',
      'de-CH',
      'de-CH',
      'fr',
      'de-CH',
      'de-CH',
      'pt-BR',
      'en',
      undefined,
      undefined,
      undefined,
    ])
  })

  it('never picks a pseudo-locale for a reader language, only when asked for by name', () => {
    const only = ['fr', 'en-XA']
    expect(['en', 'en-US', 'en-XA', 'en-xa'].map((w) => matchLocale(w, only))).toEqual([
      undefined,
      undefined,
      'en-XA',
      'en-XA',
    ])
  })
})

describe('negotiateLocale', () => {
  it('reads the path prefix, then ?lang=, the cookie, storage, then navigator.languages in order', async () => {
    const rt = await fresh()
    const all = {
      path: '/de-ch/about',
      search: '?lang=fr',
      cookie: 'theme=dark; lang=pt-BR',
      stored: 'en',
      languages: ['fr-CA', 'en'],
    }
    const picks = [
      page(all),
      page({ ...all, path: '/about' }),
      page({ ...all, path: '/about', search: '?lang=es' }),
      page({ ...all, path: '/', search: '', cookie: 'theme=dark' }),
      page({ languages: ['es-ES', 'fr-CA', 'en'] }),
      page({ languages: ['es', 'it'] }),
      page({}),
    ].map((p) => rt.negotiateLocale(p.sources))
    expect(picks).toEqual(['de-CH', 'fr', 'pt-BR', 'en', 'fr', 'en', 'en'])
  })

  it('reads only the sources the app allows, in the order it gives, under its key', async () => {
    const rt = await fresh()
    const { sources } = page({
      path: '/fr/',
      search: '?locale=de-CH&lang=fr',
      cookie: 'locale=pt-BR',
      languages: ['fr'],
    })
    expect([
      rt.negotiateLocale({ ...sources, from: ['navigator'] }),
      rt.negotiateLocale({ ...sources, from: ['cookie', 'query'], key: 'locale' }),
      rt.negotiateLocale({ ...sources, from: ['query', 'cookie'], key: 'locale' }),
      rt.negotiateLocale({ ...sources, from: ['storage'] }),
      rt.negotiateLocale({ ...sources, from: ['path'], locales: ['it', 'fr-FR'] }),
      rt.negotiateLocale({ ...sources, from: [], locales: ['it', 'fr-FR'] }),
    ]).toEqual(['fr', 'pt-BR', 'de-CH', 'en', 'fr-FR', 'it'])
  })
})

describe('negotiateLocale and pseudo-locales', () => {
  it('never starts a reader in a pseudo-locale for a language, from any source; an exact name does', async () => {
    vi.resetModules()
    const rt = await import('../src/runtime/index')
    const none = async () => ({ default: {} })
    rt._r('en-US', { 'fr-FR': none, 'ar-XB': none, 'en-XA': none })
    const picks = [
      page({ languages: ['ar', 'fr'] }),
      page({ languages: ['ar-EG'] }),
      page({ languages: ['en-GB'] }),
      page({ cookie: 'lang=ar', languages: ['fr-CA'] }),
      page({ stored: 'ar', languages: [] }),
      page({ path: '/ar/', languages: [] }),
      page({ search: '?lang=ar-xb', languages: ['fr'] }),
      page({ cookie: 'lang=en-XA', languages: ['fr'] }),
      page({ path: '/ar-XB/', languages: [] }),
    ].map((p) => rt.negotiateLocale(p.sources))
    expect(picks).toEqual(['fr-FR', 'en-US', 'en-US', 'fr-FR', 'en-US', 'en-US', 'ar-XB', 'en-XA', 'ar-XB'])
  })

  it('a cookie with a malformed escape is skipped, not thrown', async () => {
    const rt = await fresh()
    expect(rt.negotiateLocale(page({ cookie: 'lang=%E0%A4%A', languages: ['fr-CA'] }).sources)).toBe('fr')
  })
})

describe('rememberLocale', () => {
  it('writes each later switch to the cookie and storage the app allows, until stopped', async () => {
    const rt = await fresh()
    const p = page({ cookie: 'theme=dark', languages: ['fr'] })
    const stop = rt.rememberLocale(p.sources)
    await rt.setLocale('de-CH')
    expect(p.written).toEqual(['lang=de-CH; path=/; max-age=31536000; samesite=lax'])
    expect(p.store.get('lang')).toBe('de-CH')
    expect(rt.negotiateLocale(p.sources)).toBe('de-CH')
    stop()
    await rt.setLocale('fr')
    expect(p.written).toHaveLength(1)
    expect(rt.negotiateLocale(p.sources)).toBe('de-CH')
  })

  it('writes only where it may read: the cookie alone, under its key', async () => {
    const rt = await fresh()
    const p = page({})
    rt.rememberLocale({ ...p.sources, from: ['query', 'cookie'], key: 'locale' })
    await rt.setLocale('pt-BR')
    expect(p.written).toEqual(['locale=pt-BR; path=/; max-age=31536000; samesite=lax'])
    expect(p.store.size).toBe(0)
  })

  it('keeps the cookie when storage refuses the write', async () => {
    const rt = await fresh()
    const p = page({})
    const refusing = {
      ...p.sources,
      storage: {
        getItem: () => null,
        setItem: () => {
          throw new DOMException('full', 'QuotaExceededError')
        },
      },
    }
    rt.rememberLocale(refusing)
    await rt.setLocale('fr')
    expect(p.written).toEqual(['lang=fr; path=/; max-age=31536000; samesite=lax'])
  })
})
