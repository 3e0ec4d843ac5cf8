import { gzipSync } from 'node:zlib'
import { minifiedBundle } from '../../test/helpers/bundle'
import { paraglideOutput } from '../paraglide'
import type { BenchSection } from '../section'

const BUDGET = 1024
const repo = new URL('../../', import.meta.url).pathname
/** `You have {count, plural, =0 {no files} one {# file} other {# files}}`, as the transform writes it. */
const PLURAL = JSON.stringify([
  'You have ',
  ['count', 4, 0, { 0: 'no files', one: [0, ' file'], other: [0, ' files'] }],
])

/**
 * What each library adds to a bundle for the same job: translate one message with a value and switch
 * the locale. Ours is the job as a built bundle does it (the call the transform writes, with a plural
 * message compiled at build time, so plural, select, number and date support are all in), the peers as
 * their documentation shows it. Each entry is bundled by esbuild (minified, ESM, browser) with everything it imports,
 * then gzipped at level 9.
 */
/** `Hello <b>{name}</b>!`, compiled as a <T> message. */
const RICH = JSON.stringify(['Hello ', ['b', 6, [['name']]], '!'])

interface Entry {
  name: string
  note: string
  code: string
  /** Left out of the bundle: the framework every app of a binding has anyway. */
  external?: string[]
  /** Our row the ratio compares with, when not the runtime's: a binding's, for its framework's peer. */
  versus?: string
  /** Compile-time flags a library asks its bundler to set. */
  define?: Record<string, string>
}

/** vue-i18n's compile-time flags, set as its documentation asks a bundler to. */
const VUE_I18N_FLAGS = {
  'process.env.NODE_ENV': '"production"',
  __VUE_I18N_FULL_INSTALL__: 'true',
  __VUE_I18N_LEGACY_API__: 'false',
  __INTLIFY_PROD_DEVTOOLS__: 'false',
  __INTLIFY_JIT_COMPILATION__: 'false',
  __INTLIFY_DROP_MESSAGE_COMPILER__: 'false',
}

const ENTRIES: Entry[] = [
  {
    name: 'unplugin-tms/runtime',
    note: 'this package: a plural message as the build compiles it, with the ICU interpreter',
    code: `import { _l, setLocale } from '${repo}dist/runtime.mjs'
      setLocale('fr-FR')
      console.log(_l('k2Xq81', ${PLURAL}, { count: 2 }))`,
  },
  {
    name: 'unplugin-tms/runtime, untransformed',
    note: "t() parsing ICU source text at run time, as in an app's unit tests; never in a built bundle",
    code: `import { t, setLocale } from '${repo}dist/runtime.mjs'
      setLocale('fr-FR'); console.log(t('You have {count, plural, =0 {no files} one {# file} other {# files}}', { count: 2 }))`,
  },
  {
    name: 'unplugin-tms/react',
    note: 'the React binding with the runtime: `useLocale` and a `<T>` with a tag, as the transform writes it; React left out',
    code: `import { createElement } from 'react'
      import { T, useLocale } from '${repo}dist/react.mjs'
      import { _l, setLocale } from 'unplugin-tms/runtime'
      function App() {
        useLocale()
        return createElement(T, { _: () => _l('k2Xq81', ${RICH}, { name: 'Ada', b: (c) => createElement('b', { key: 'b' }, c) }) })
      }
      setLocale('fr-FR'); console.log(createElement(App))`,
    external: ['react'],
  },
  {
    name: '@lingui/react',
    note: 'with @lingui/core: `I18nProvider`, `useLingui` and a `<Trans>` with a component; React left out',
    code: `import { createElement } from 'react'
      import { i18n } from '@lingui/core'
      import { I18nProvider, Trans, useLingui } from '@lingui/react'
      i18n.load('fr', { hello: 'Bonjour <0>{name}</0> !' }); i18n.activate('fr')
      function App() {
        useLingui()
        return createElement(Trans, { id: 'hello', values: { name: 'Ada' }, components: { 0: createElement('b') } })
      }
      console.log(createElement(I18nProvider, { i18n }, createElement(App)))`,
    external: ['react'],
    versus: 'unplugin-tms/react',
  },
  {
    name: 'unplugin-tms/svelte',
    note: "the Svelte binding with the runtime: the same lookup made reactive, the switch through `locale.current`; Svelte's own code not counted, every Svelte app has it",
    code: `import { _l, locale } from '${repo}dist/svelte.mjs'
      locale.current = 'fr-FR'
      console.log(_l('k2Xq81', ${PLURAL}, { count: 2 }))`,
    external: ['svelte', 'svelte/*', '*.svelte'],
  },
  {
    name: 'unplugin-tms/vue',
    note: 'the Vue binding with the runtime: the lookup templates call, the switch through `useLocale()`, `<T>`; vue itself left out',
    code: `import { _l, T, useLocale } from '${repo}dist/vue.mjs'
      useLocale().value = 'fr-FR'
      console.log(_l('k2Xq81', ${PLURAL}, { count: 2 }), T)`,
    external: ['vue'],
  },
  {
    name: 'vue-i18n',
    note: 'createI18n + t with precompiled messages (its runtime-only build, what @intlify/unplugin-vue-i18n ships); vue left out',
    code: `import { createI18n } from 'vue-i18n/dist/vue-i18n.runtime.esm-bundler.js'
      const i18n = createI18n({ legacy: false, locale: 'en', messages: { fr: { hello: () => 'Bonjour' } } })
      i18n.global.locale.value = 'fr'; console.log(i18n.global.t('hello', { name: 'Ada' }))`,
    external: ['vue'],
    versus: 'unplugin-tms/vue',
    define: VUE_I18N_FLAGS,
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

/** Paraglide JS (the Svelte binding's peer): its compiled message and runtime, as its compiler writes them. */
async function paraglideEntry(): Promise<Entry> {
  const dir = await paraglideOutput()
  return {
    name: '@inlang/paraglide-js',
    note: "compiled `m.hello({ name })` in two locales + its generated runtime's setLocale (no reload)",
    code: `import { m } from '${dir}/messages.js'
      import { setLocale } from '${dir}/runtime.js'
      setLocale('fr', { reload: false }); console.log(m.hello({ name: 'Ada' }))`,
    versus: 'unplugin-tms/svelte',
  }
}

async function minGzip(entry: Entry): Promise<{ min: number; gzip: number }> {
  const bytes = await minifiedBundle(entry.code, { external: entry.external, define: entry.define })
  return { min: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length }
}

/** min+gzip size of the browser runtime, beside what the peers' runtimes cost for the same job. */
/** Run once by bench/run.ts: bundle sizes do not depend on the Node that measures them. */
export const perNode = false

export async function run(): Promise<BenchSection> {
  const rows: string[] = []
  const ours = new Map<string, number>()
  for (const entry of [...ENTRIES, await paraglideEntry()]) {
    const { min, gzip } = await minGzip(entry)
    const mine = entry.name.startsWith('unplugin-tms/')
    if (mine) ours.set(entry.name, gzip)
    // A binding's peer: its ratio is to the binding.
    const base = ours.get(entry.versus ?? 'unplugin-tms/runtime')
    const target =
      entry.name === 'unplugin-tms/runtime' ? `<= ${BUDGET} B ${gzip <= BUDGET ? '(met)' : '(MISSED)'}` : ''
    rows.push(
      `| \`${entry.name}\` (${entry.note}) | ${min} B | ${gzip} B | ${base && !mine ? `${(gzip / base).toFixed(1)}×` : ''} | ${target} |`,
    )
  }
  return {
    title: 'Runtime size',
    markdown: [
      'Each library bundled by esbuild (minified, ESM) for the same job: one message with a value, one locale switch. Ours formats a plural message compiled at build time (the bundle holds the ICU interpreter: plural, selectordinal, select, number, date/time); the untransformed row is what `t()` costs with its ICU reader where no build ran (unit tests). The React binding row adds `useLocale` and `<T>` to the runtime (React itself left out); its peer, @lingui/react, is measured with @lingui/core, and its ratio is to the binding. The Svelte binding row adds the reactive lookup and `locale` to the runtime (Svelte itself left out); its peer, Paraglide JS, is measured on the output its compiler writes for one message in two locales, and its ratio is to the binding. The Vue binding row adds the reactive lookup, `useLocale` and `<T>` (Vue itself left out); its peer, vue-i18n, is measured in its runtime-only build with a precompiled message, and its ratio is to the binding.',
      '',
      '| runtime | minified | min+gzip | × ours | target |',
      '| --- | --- | --- | --- | --- |',
      ...rows,
    ].join('\n'),
  }
}
