import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { Library } from '../../src/core/migrate/types'

/**
 * The page entries of a fixture app for the Chromium comparison (chromium.test.ts): the original app
 * on its own library (catalogs loaded by that library's usual means) and the migrated app on
 * unplugin-tms. Both expose `window.show(locale, view)`, which renders `App` synchronously and
 * resolves once the page shows it. The views are the `<App .../>` element of the fixture's main.jsx
 * (whatever props it gives), the same with one thing and another gender (contexts), and with counts
 * of 0, 5 and 1.5: with main's 2, every branch a Polish plural has (`=0`, one, few, many, other).
 */

/** Where each library keeps its catalogs in the fixtures; the locale is a path segment. */
export function catalogFiles(dir: string, library: Library): { locale: string; file: string }[] {
  const files: { locale: string; file: string }[] = []
  const each = (folder: string, match: (name: string, path: string) => string | undefined): void => {
    for (const entry of readdirSync(join(dir, folder), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue
      const path = relative(dir, join(entry.parentPath, entry.name))
      const locale = match(entry.name, path)
      if (locale) files.push({ locale, file: path })
    }
  }
  if (library === 'lingui') each('src/locales', (n, p) => (n === 'messages.po' ? p.split('/')[2] : undefined))
  if (library === 'formatjs') each('lang', (n) => /^(.+)\.json$/.exec(n)?.[1])
  if (library === 'i18next')
    each('public/locales', (n, p) => (n.endsWith('.json') ? p.split('/')[2] : undefined))
  return files.sort((a, b) => a.file.localeCompare(b.file))
}

/** The `<App .../>` element the fixture's main.jsx renders: its props are the app's own. */
function appElement(dir: string): string {
  const main = readFileSync(join(dir, 'src/main.jsx'), 'utf8')
  const element = /<App\b[^>]*\/>/.exec(main)?.[0]
  if (!element) throw new Error(`${dir}/src/main.jsx renders no <App ... />`)
  return element
}

const VIEWS = (dir: string): string => `
import { flushSync } from 'react-dom'
import { createRoot } from 'react-dom/client'
import { App } from './src/App.jsx'

const props = (${appElement(dir)}).props
const views = {
  main: props,
  one: { ...props, count: 1, gender: 'male' },
  none: { ...props, count: 0 },
  five: { ...props, count: 5 },
  fraction: { ...props, count: 1.5 },
}
const root = createRoot(document.getElementById('root'))
let shown = 0
const paint = (tree) => flushSync(() => root.render(tree))
`

const ORIGINAL: Record<Library, string> = {
  lingui: `
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
const catalogs = import.meta.glob('./src/locales/*/messages.po')
window.show = async (locale, view) => {
  const { messages } = await catalogs['./src/locales/' + locale + '/messages.po']()
  i18n.loadAndActivate({ locale, messages })
  paint(<I18nProvider i18n={i18n} key={++shown}><App {...views[view]} /></I18nProvider>)
}
`,
  formatjs: `
import { IntlProvider } from 'react-intl'
const catalogs = import.meta.glob('./lang/*.json', { import: 'default', eager: true })
window.show = async (locale, view) => {
  const file = catalogs['./lang/' + locale + '.json']
  // The source locale's file is what formatjs extract wrote: its texts are the defaultMessages.
  const messages = Object.fromEntries(Object.entries(file).map(([id, m]) => [id, typeof m === 'string' ? m : m.defaultMessage]))
  paint(<IntlProvider locale={locale} defaultLocale="en" messages={messages} key={++shown}><App {...views[view]} /></IntlProvider>)
}
`,
  i18next: `
import i18next from 'i18next'
import { initReactI18next } from 'react-i18next'
const files = import.meta.glob('./public/locales/*/*.json', { import: 'default', eager: true })
const resources = {}
for (const [path, json] of Object.entries(files)) {
  const [, , , lng, ns] = path.replace(/\\.json$/, '').split('/')
  resources[lng] = { ...resources[lng], [ns]: json }
}
// As the fixture's src/i18n.js sets it up, with the catalogs as resources.
await i18next.use(initReactI18next).init({ lng: 'en', fallbackLng: 'en', resources })
window.show = async (locale, view) => {
  await i18next.changeLanguage(locale)
  paint(<App {...views[view]} key={++shown} />)
}
`,
}

const MIGRATED = `
import { setLocale } from 'unplugin-tms/runtime'
window.show = async (locale, view) => {
  await setLocale(locale)
  paint(<App {...views[view]} key={++shown} />)
}
`

/** The entry module's code: the original app on its library, or the migrated one on unplugin-tms. */
export function entryCode(dir: string, library: Library, side: 'original' | 'migrated'): string {
  return VIEWS(dir) + (side === 'original' ? ORIGINAL[library] : MIGRATED)
}

export const VIEW_NAMES: readonly string[] = ['main', 'one', 'none', 'five', 'fraction']

export const PAGE = `<!doctype html>
<html><head><link rel="icon" href="data:,"></head><body><div id="root"></div><script type="module" src="/entry.jsx"></script></body></html>
`
