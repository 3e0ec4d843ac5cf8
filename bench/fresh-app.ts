/**
 * The React app of the fresh-process build benchmark, written once per tool in that tool's own message
 * syntax, with the same messages and the same translations: `modules` TSX components of ten messages each
 * (every text distinct across the app; a tenth of them with a `{name}` and a tenth with a `{count}`),
 * an entry that imports every component and loads the chosen locale, and each tool's translation files.
 *
 * - `tms`: `t('Hello {name}', { name })` from unplugin-tms/runtime; translations in a warm offline cache.
 * - `lingui`: `` t`Hello ${name}` `` from @lingui/core/macro; one .po catalog per locale, imported by the
 *   entry (the vite plugin compiles it), the source locale's included (its bundle keeps ids only).
 * - `formatjs`: `intl.formatMessage({ defaultMessage }, values)` with react-intl's `useIntl`; one JSON
 *   catalog per locale, pre-parsed (`formatjs compile --ast`'s output), ids as @formatjs/vite-plugin
 *   makes them (`[sha512:contenthash:base64:6]` of the text).
 * - `paraglide`: `m.key(values)` from the compiled messages; one inlang message-format file per locale.
 *
 * Everything derives from a seeded PRNG, so two runs get byte-identical apps.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from '@formatjs/icu-messageformat-parser'
import { prng, WORDS } from './extract-corpus'

/** `none`: the same app without its messages (each an empty string), the baseline of the sizes. */
export type FreshTool = 'none' | 'tms' | 'lingui' | 'formatjs' | 'paraglide'
export const SOURCE_LOCALE = 'en'
export const TARGET_LOCALES = ['fr-FR', 'de-DE', 'ja-JP'] as const
const PER_MODULE = 10

export interface FreshMessage {
  /** ICU source text: words, at most one `{name}` or `{count}`. */
  text: string
  /** The value the message takes, if any. */
  value?: 'name' | 'count'
  /** Paraglide's key (`v<module>_<k>`). */
  key: string
}

/** modules × 10 distinct messages, in module order. */
export function freshMessages(modules: number): FreshMessage[][] {
  const rand = prng(24)
  const seen = new Set<string>()
  const out: FreshMessage[][] = []
  for (let i = 0; i < modules; i++) {
    const row: FreshMessage[] = []
    for (let k = 0; k < PER_MODULE; k++) {
      const value = k === 8 ? 'name' : k === 9 ? 'count' : undefined
      let text = ''
      // A message's identity is its parsed text: `{name}` and `{count}` both read as `{0}`.
      let identity = ''
      do {
        const words = Array.from(
          { length: 3 + Math.floor(rand() * 6) },
          () => WORDS[Math.floor(rand() * WORDS.length)]!,
        )
        if (value) words.splice(1 + Math.floor(rand() * (words.length - 1)), 0, `{${value}}`)
        text = words.join(' ')
        text = text[0]!.toUpperCase() + text.slice(1)
        identity = text.replace(/\{[a-z]+\}/, '{}')
      } while (seen.has(identity))
      seen.add(identity)
      row.push({ text, ...(value ? { value } : {}), key: `v${i}_${k}` })
    }
    out.push(row)
  }
  return out
}

/**
 * One locale's translation of a source text: each word's letters shifted within the alphabet (a
 * different shift per locale; kana for ja-JP), placeholders kept. Same length class as real
 * translations, and no more compressible than the source.
 */
export function translate(text: string, locale: string): string {
  const shift = locale === 'fr-FR' ? 3 : locale === 'de-DE' ? 7 : 0
  return text.replace(/\{[a-z]+\}|[A-Za-z]+/g, (word) => {
    if (word.startsWith('{')) return word
    if (locale === 'ja-JP') {
      return Array.from(word.toLowerCase(), (c) =>
        String.fromCharCode(0x30a2 + (((c.charCodeAt(0) - 97) * 2) % 80)),
      )
        .join('')
        .slice(0, Math.ceil(word.length / 2) + 1)
    }
    return word.replace(/[a-z]/gi, (c) => {
      const base = c <= 'Z' ? 65 : 97
      return String.fromCharCode(base + ((c.charCodeAt(0) - base + shift) % 26))
    })
  })
}

/** What each tool's module writes around the same message. */
function callOf(tool: FreshTool, m: FreshMessage): string {
  const values = m.value ? `{ ${m.value} }` : ''
  switch (tool) {
    case 'none':
      return "''"
    case 'tms':
      return `t(${JSON.stringify(m.text)}${values ? `, ${values}` : ''})`
    case 'lingui':
      return `t\`${m.text.replace(/\{(name|count)\}/, '$${$1}')}\``
    case 'formatjs':
      return `intl.formatMessage({ defaultMessage: ${JSON.stringify(m.text)} }${values ? `, ${values}` : ''})`
    case 'paraglide':
      return `m.${m.key}(${values})`
  }
}

const IMPORTS: Record<FreshTool, string> = {
  none: '',
  tms: "import { t } from 'unplugin-tms/runtime'",
  lingui: "import { t } from '@lingui/core/macro'",
  formatjs: "import { useIntl } from 'react-intl'",
  paraglide: "import { m } from '../paraglide/messages.js'",
}

/** A component of about 1.8 KB: ten messages in markup, state, a little data work. */
function moduleSource(tool: FreshTool, index: number, messages: FreshMessage[]): string {
  const c = messages.map((m) => callOf(tool, m))
  return `${IMPORTS[tool]}
import { useMemo, useState } from 'react'

interface Row { id: number; value: number; label?: string }

function rank${index}(rows: Row[], factor = ${(index % 7) + 1}): Row[] {
  return rows
    .filter((row) => Number.isFinite(row.value))
    .map((row) => ({ ...row, value: Math.round(row.value * factor * 100) / 100, label: String(row.label ?? '').trim() }))
    .sort((a, b) => a.value - b.value)
    .slice(0, ${10 + (index % 5)})
}

export function View${index}({ name, count, rows }: { name: string; count: number; rows: Row[] }) {
${tool === 'formatjs' ? '  const intl = useIntl()\n' : ''}  const [open, setOpen] = useState(false)
  const ranked = useMemo(() => rank${index}(rows), [rows])
  return (
    <section className="view-${index}">
      <h2>{${c[0]}}</h2>
      <button type="button" title={${c[1]}} onClick={() => setOpen(!open)}>
        {${c[2]}}
      </button>
      {open && (
        <ul>
          <li>{${c[3]}}</li>
          <li>{${c[4]}}</li>
          <li>{${c[5]}}</li>
          <li>{${c[6]}}</li>
          <li>{${c[7]}}</li>
        </ul>
      )}
      <p>{${c[8]}}</p>
      <p>{${c[9]}}</p>
      <ol>{ranked.map((row) => <li key={row.id}>{row.label}: {row.value}</li>)}</ol>
    </section>
  )
}
`
}

/** The entry: every view, the locale from the URL, the tool's way of loading it. */
function mainSource(tool: FreshTool, modules: number): string {
  const imports = Array.from({ length: modules }, (_, i) => `import { View${i} } from './m/m${i}'`).join('\n')
  const views = `const views = [${Array.from({ length: modules }, (_, i) => `View${i}`).join(', ')}]`
  const app = `function App() {
  return <main>{views.map((View, i) => <View key={i} name="Ada" count={i} rows={[]} />)}</main>
}`
  const locale = `const locale = new URLSearchParams(location.search).get('lang') ?? '${SOURCE_LOCALE}'`
  const root = "const root = createRoot(document.getElementById('root')!)"
  const load: Record<FreshTool, string> = {
    none: `${imports}
${views}
${app}
${root}
root.render(<App />)`,
    tms: `import { setLocale } from 'unplugin-tms/runtime'
${imports}
${views}
${app}
${locale}
${root}
setLocale(locale).then(() => root.render(<App />))`,
    lingui: `import { i18n } from '@lingui/core'
${imports}
${views}
${app}
${locale}
${root}
import(\`./locales/\${locale}.po\`).then(({ messages }) => {
  i18n.loadAndActivate({ locale, messages })
  root.render(<App />)
})`,
    formatjs: `import { IntlProvider } from 'react-intl'
${imports}
${views}
${app}
${locale}
${root}
import(\`./lang/\${locale}.json\`).then(({ default: messages }) =>
  root.render(<IntlProvider locale={locale} defaultLocale="${SOURCE_LOCALE}" messages={messages}><App /></IntlProvider>),
)`,
    paraglide: `import { setLocale } from './paraglide/runtime.js'
${imports}
${views}
${app}
${locale}
${root}
setLocale(locale as 'en', { reload: false })
root.render(<App />)`,
  }
  return `import { createRoot } from 'react-dom/client'\n${load[tool]}\n`
}

/** A .po string literal. */
function po(text: string): string {
  return JSON.stringify(text)
}

/** FormatJS's id for a message without an explicit id or description. */
export function formatjsId(text: string): string {
  return createHash('sha512').update(text).digest('base64').slice(0, 6)
}

/** The app's TypeScript settings, those of vite's react-ts template that the compilers read. */
const APP_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    module: 'ESNext',
    moduleResolution: 'bundler',
    jsx: 'react-jsx',
    strict: true,
    skipLibCheck: true,
    isolatedModules: true,
    noEmit: true,
  },
  include: ['src'],
}

/** Writes the tool's app at `root` (replacing it): sources, tsconfig.json, index.html and translation files. */
export function writeFreshApp(root: string, tool: FreshTool, messages: FreshMessage[][]): void {
  rmSync(root, { recursive: true, force: true })
  mkdirSync(join(root, 'src', 'm'), { recursive: true })
  messages.forEach((row, i) => {
    writeFileSync(join(root, 'src', 'm', `m${i}.tsx`), moduleSource(tool, i, row))
  })
  writeFileSync(join(root, 'src', 'main.tsx'), mainSource(tool, messages.length))
  // As an app made from vite's react-ts template has one: without it, TypeScript's settings come from
  // the nearest tsconfig.json above the app (this repository's), and vite's dev server watches that
  // file again for every module it compiles, outside the app's root.
  writeFileSync(join(root, 'tsconfig.json'), `${JSON.stringify(APP_TSCONFIG, null, 2)}\n`)
  writeFileSync(
    join(root, 'index.html'),
    '<!doctype html><html lang="en"><body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body></html>\n',
  )
  const all = messages.flat()
  const locales = [SOURCE_LOCALE, ...TARGET_LOCALES]
  if (tool === 'lingui') {
    mkdirSync(join(root, 'src', 'locales'))
    writeFileSync(
      join(root, 'lingui.config.js'),
      `export default ${JSON.stringify({
        locales,
        sourceLocale: SOURCE_LOCALE,
        catalogs: [{ path: '<rootDir>/src/locales/{locale}', include: ['src'] }],
      })}\n`,
    )
    for (const locale of locales) {
      const entries = all.map(
        (m) =>
          `msgid ${po(m.text)}\nmsgstr ${po(locale === SOURCE_LOCALE ? m.text : translate(m.text, locale))}\n`,
      )
      writeFileSync(
        join(root, 'src', 'locales', `${locale}.po`),
        `msgid ""\nmsgstr ""\n"Language: ${locale}\\n"\n"Content-Type: text/plain; charset=utf-8\\n"\n\n${entries.join('\n')}`,
      )
    }
  }
  if (tool === 'formatjs') {
    mkdirSync(join(root, 'src', 'lang'))
    for (const locale of locales) {
      const catalog = Object.fromEntries(
        all.map((m) => [
          formatjsId(m.text),
          parse(locale === SOURCE_LOCALE ? m.text : translate(m.text, locale)),
        ]),
      )
      writeFileSync(join(root, 'src', 'lang', `${locale}.json`), JSON.stringify(catalog))
    }
  }
  if (tool === 'paraglide') {
    mkdirSync(join(root, 'project.inlang'), { recursive: true })
    mkdirSync(join(root, 'messages'))
    writeFileSync(
      join(root, 'project.inlang', 'settings.json'),
      JSON.stringify(
        {
          baseLocale: SOURCE_LOCALE,
          locales,
          // The plugin from node_modules: no CDN, the bench needs no network.
          modules: ['../../../../node_modules/@inlang/plugin-message-format/dist/index.js'],
          'plugin.inlang.messageFormat': { pathPattern: './messages/{locale}.json' },
        },
        null,
        2,
      ),
    )
    for (const locale of locales) {
      const file = Object.fromEntries(
        all.map((m) => [m.key, locale === SOURCE_LOCALE ? m.text : translate(m.text, locale)]),
      )
      writeFileSync(join(root, 'messages', `${locale}.json`), JSON.stringify(file, null, 2))
    }
  }
}
