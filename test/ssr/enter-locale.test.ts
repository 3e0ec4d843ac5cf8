import { expect, it, vi } from 'vitest'

/**
 * `enterLocale` (src/runtime/node.ts): for renderers with no function to wrap (Nuxt), the rest of the
 * current async context takes the locale and zone, as a renderer that creates the app in one call and
 * renders it after an await does.
 */

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

it('puts the rest of each request in its locale and zone, across awaits, while others run at once', async () => {
  vi.resetModules()
  const rt = await import('../../src/runtime/node')
  rt._r('en-US', {
    'fr-FR': async () => ({ default: { a: 'Bonjour' } }),
    'ja-JP': async () => ({ default: { a: 'こんにちは' } }),
  })
  // The shape of Nuxt's renderer: `const app = await createApp(); const html = await render(app)`,
  // the locale entered by the first, synchronous part of createApp (its first plugin).
  const createApp = (locale: string, timeZone: string): Promise<void> => {
    const loading = Promise.resolve(rt.enterLocale(locale, { timeZone }))
    return loading.then(async () => {
      await tick(3)
    })
  }
  const render = async (delay: number) => {
    await tick(delay)
    return `${rt.getLocale()} ${rt.getTimeZone()} ${rt._l('a', 'Hello')}`
  }
  const request = async (i: number) => {
    await Promise.resolve()
    const [locale, zone] = i % 2 ? ['fr-FR', 'Europe/Paris'] : ['ja-JP', 'Asia/Tokyo']
    await createApp(locale!, zone!)
    return render(20 - i)
  }
  const pages = await Promise.all(Array.from({ length: 20 }, (_, i) => request(i)))
  expect(pages.filter((p) => p === 'fr-FR Europe/Paris Bonjour')).toHaveLength(10)
  expect(pages.filter((p) => p === 'ja-JP Asia/Tokyo こんにちは')).toHaveLength(10)
  // (Here, after the awaits, Node 20 and 22 give this function the store of the request that settled
  // last, as Node's docs say of enterWith; Node 24 gives none. In a server that is the request's own.)
  expect(() => rt.enterLocale('xx-YY')).toThrow('[unplugin-tms] unknown locale "xx-YY"')
})
