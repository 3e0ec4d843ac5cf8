import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import type { BenchSection } from '../run'

const BUDGET = 1024
const repo = new URL('../../', import.meta.url).pathname
/** `You have {count, plural, =0 {no files} one {# file} other {# files}}`, as the transform writes it. */
const PLURAL = JSON.stringify([
  'You have ',
  ['count', 4, 0, { '=0': 'no files', one: [0, ' file'], other: [0, ' files'] }],
])

/** `Hello <b>{name}</b>!`, compiled as a <T> message. */
const RICH = JSON.stringify(['Hello ', ['b', 6, [['name']]], '!'])

/**
 * What each library adds to a bundle for the same job: translate one message with a value and switch
 * the locale. Ours is the job as a built bundle does it (the call the transform writes, with a plural
 * message compiled at build time, so plural, select, number and date support are all in), the peers as
 * their documentation shows it. Each entry is bundled by esbuild (minified, ESM, browser) with everything it imports,
 * then gzipped at level 9.
 */
const ENTRIES: { name: string; note: string; code: string }[] = [
  {
    name: 'unplugin-tms/runtime',
    note: 'this package: a plural message as the build compiles it, with the ICU interpreter',
    code: `import { _l, setLocale } from '${repo}dist/runtime.mjs'
      setLocale('fr-FR')
      console.log(_l('k2Xq81aP', ${PLURAL}, { count: 2 }))`,
  },
  {
    name: 'unplugin-tms/runtime, untransformed',
    note: "t() parsing ICU source text at run time, as in an app's unit tests; never in a built bundle",
    code: `import { t, setLocale } from '${repo}dist/runtime.mjs'
      setLocale('fr-FR'); console.log(t('You have {count, plural, =0 {no files} one {# file} other {# files}}', { count: 2 }))`,
  },
  {
    name: 'unplugin-tms/react',
    note: 'the binding over the runtime, React left out: `useLocale` and a `<T>` with a tag, as the transform writes it',
    code: `import { createElement } from 'react'
      import { T, useLocale } from '${repo}dist/react.mjs'
      import { _l, setLocale } from 'unplugin-tms/runtime'
      function App() {
        useLocale()
        return createElement(T, { _: () => _l('k2Xq81aP', ${RICH}, { name: 'Ada', b: (c) => createElement('b', { key: 'b' }, c) }) })
      }
      setLocale('fr-FR'); console.log(createElement(App))`,
  },
  {
    name: '@lingui/react',
    note: 'with @lingui/core, React left out: `I18nProvider`, `useLingui` and a `<Trans>` with a component',
    code: `import { createElement } from 'react'
      import { i18n } from '@lingui/core'
      import { I18nProvider, Trans, useLingui } from '@lingui/react'
      i18n.load('fr', { hello: 'Bonjour <0>{name}</0> !' }); i18n.activate('fr')
      function App() {
        useLingui()
        return createElement(Trans, { id: 'hello', values: { name: 'Ada' }, components: { 0: createElement('b') } })
      }
      console.log(createElement(I18nProvider, { i18n }, createElement(App)))`,
  },
  {
    name: '@lingui/core',
    note: 'i18n.activate + i18n._',
    code: `import { i18n } from '@lingui/core'
      i18n.load('fr', { hello: 'Bonjour {name} !' }); i18n.activate('fr'); console.log(i18n._('hello', { name: 'Ada' }))`,
  },
  {
    name: 'i18next',
    note: 'init + changeLanguage + t',
    code: `import i18next from 'i18next'
      await i18next.init({ lng: 'fr', resources: { fr: { translation: { hello: 'Bonjour {{name}} !' } } } })
      await i18next.changeLanguage('fr'); console.log(i18next.t('hello', { name: 'Ada' }))`,
  },
  {
    name: '@formatjs/intl',
    note: 'createIntl + formatMessage',
    code: `import { createIntl } from '@formatjs/intl'
      const intl = createIntl({ locale: 'fr', messages: { hello: 'Bonjour {name} !' } })
      console.log(intl.formatMessage({ id: 'hello' }, { name: 'Ada' }))`,
  },
]

async function minGzip(code: string): Promise<{ min: number; gzip: number }> {
  const result = await build({
    stdin: { contents: code, resolveDir: repo, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    // Both React bindings need React: the rows compare what each adds to it.
    external: ['react', 'react-dom'],
    write: false,
    logLevel: 'silent',
  })
  const bytes = result.outputFiles[0]!.contents
  return { min: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length }
}

/** min+gzip size of the browser runtime, beside what the peers' runtimes cost for the same job. */
/** Run once by bench/run.ts: bundle sizes do not depend on the Node that measures them. */
export const perNode = false

export async function run(): Promise<BenchSection> {
  const rows: string[] = []
  const ours: Record<string, number> = {}
  for (const entry of ENTRIES) {
    const { min, gzip } = await minGzip(entry.code)
    const mine = entry.name.startsWith('unplugin-tms/')
    if (mine) ours[entry.name] = gzip
    // A React binding is compared with ours, the other peers with the runtime.
    const base = ours[entry.name.endsWith('/react') ? 'unplugin-tms/react' : 'unplugin-tms/runtime']
    const target =
      entry.name === 'unplugin-tms/runtime' ? `<= ${BUDGET} B ${gzip <= BUDGET ? '(met)' : '(MISSED)'}` : ''
    rows.push(
      `| \`${entry.name}\` (${entry.note}) | ${min} B | ${gzip} B | ${base && !mine ? `${(gzip / base).toFixed(1)}×` : ''} | ${target} |`,
    )
  }
  return {
    title: 'Runtime size',
    markdown: [
      'Each library bundled by esbuild (minified, ESM) for the same job: one message with a value, one locale switch. Ours formats a plural message compiled at build time (the bundle holds the ICU interpreter: plural, selectordinal, select, number, date/time); the untransformed row is what `t()` costs with its ICU reader where no build ran (unit tests). The React rows leave React itself out and are compared with each other.',
      '',
      '| runtime | minified | min+gzip | × ours | target |',
      '| --- | --- | --- | --- | --- |',
      ...rows,
    ].join('\n'),
  }
}
