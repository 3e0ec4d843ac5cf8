import { PassThrough } from 'node:stream'
import { renderToPipeableStream } from 'react-dom/server'
import { negotiateRequestLocale, runWithLocale, t } from 'unplugin-tms/runtime'
import { App } from './App'
import { loadCart } from './cart'
import { dirOf, LOCALES, type Page } from './locales'

export { LOCALES, PAGES, route } from './locales'

export interface Rendered {
  /** The app's markup, for `<div id="root">`. */
  html: string
  /** For `<html lang dir>`: the client starts in this locale. */
  lang: string
  dir: 'rtl' | 'ltr'
  title: string
}

/**
 * The locale a request to `/` asks for: the `lang` cookie the locale switcher writes (entry-client.tsx),
 * else the best of Accept-Language by q-value; a pseudo-locale only when named exactly.
 */
export function requestLocale(headers: { 'accept-language'?: string; cookie?: string }): string {
  return negotiateRequestLocale({
    acceptLanguage: headers['accept-language'],
    cookie: headers.cookie,
    locales: LOCALES,
  })
}

/** Renders a page in `locale`: every `t` inside, across the awaits of the rendering, is in that locale. */
export function render(page: Page, locale: string): Promise<Rendered> {
  return runWithLocale(locale, async () => {
    const title = t('Welcome to the demo store')
    const html = await renderToHtml(<App page={page} cart={loadCart()} />)
    return { html, lang: locale, dir: dirOf(locale), title }
  })
}

/** The whole markup once every Suspense boundary is done (a crawler and a static page need all of it). */
function renderToHtml(app: React.ReactNode): Promise<string> {
  return new Promise((resolve, reject) => {
    let html = ''
    const sink = new PassThrough()
    sink.on('data', (chunk: Buffer) => {
      html += chunk.toString()
    })
    sink.on('end', () => resolve(html))
    const stream = renderToPipeableStream(app, {
      onAllReady: () => stream.pipe(sink),
      onShellError: reject,
      onError: reject,
    })
  })
}
