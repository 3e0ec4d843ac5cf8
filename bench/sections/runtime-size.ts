import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { paraglideOutput } from '../paraglide'
import type { BenchSection } from '../run'

const BUDGET = 1024
const repo = new URL('../../', import.meta.url).pathname
/** `You have {count, plural, =0 {no files} one {# file} other {# files}}`, as the transform writes it. */
const PLURAL = JSON.stringify([
  'You have ',
  ['count', 4, 0, { '=0': 'no files', one: [0, ' file'], other: [0, ' files'] }],
])

/**
 * What each library adds to a bundle for the same job: translate one message with a value and switch
 * the locale. Ours is the job as a built bundle does it (the call the transform writes, with a plural
 * message compiled at build time, so plural, select, number and date support are all in), the peers as
 * their documentation shows it. Each entry is bundled by esbuild (minified, ESM, browser) with everything it imports,
 * then gzipped at level 9.
 */
interface Entry {
  name: string
  note: string
  code: string
  /** Left out of the bundle: the framework every app of a binding has anyway. */
  external?: string[]
}

const ENTRIES: Entry[] = [
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
    name: 'unplugin-tms/svelte',
    note: "the Svelte binding with the runtime: the same lookup made reactive, the switch through `locale.current`; Svelte's own code not counted, every Svelte app has it",
    code: `import { _l, locale } from '${repo}dist/svelte.mjs'
      locale.current = 'fr-FR'
      console.log(_l('k2Xq81aP', ${PLURAL}, { count: 2 }))`,
    external: ['svelte', 'svelte/*', '*.svelte'],
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
  }
}

async function minGzip(entry: Entry): Promise<{ min: number; gzip: number }> {
  const result = await build({
    stdin: { contents: entry.code, resolveDir: repo, loader: 'js' },
    external: entry.external ?? [],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
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
  let ours = 0
  let svelte = 0
  for (const entry of [...ENTRIES, await paraglideEntry()]) {
    const { min, gzip } = await minGzip(entry)
    const mine = entry.name.startsWith('unplugin-tms/')
    if (entry.name === 'unplugin-tms/runtime') ours = gzip
    if (entry.name === 'unplugin-tms/svelte') svelte = gzip
    // Paraglide is the Svelte binding's peer: its ratio is to the binding.
    const base = entry.name === '@inlang/paraglide-js' ? svelte : ours
    const target =
      entry.name === 'unplugin-tms/runtime' ? `<= ${BUDGET} B ${gzip <= BUDGET ? '(met)' : '(MISSED)'}` : ''
    rows.push(
      `| \`${entry.name}\` (${entry.note}) | ${min} B | ${gzip} B | ${base && !mine ? `${(gzip / base).toFixed(1)}×` : ''} | ${target} |`,
    )
  }
  return {
    title: 'Runtime size',
    markdown: [
      'Each library bundled by esbuild (minified, ESM) for the same job: one message with a value, one locale switch. Ours formats a plural message compiled at build time (the bundle holds the ICU interpreter: plural, selectordinal, select, number, date/time); the untransformed row is what `t()` costs with its ICU reader where no build ran (unit tests). The Svelte binding row adds the reactive lookup and `locale` to the runtime (Svelte itself left out); its peer, Paraglide JS, is measured on the output its compiler writes for one message in two locales, and its ratio is to the binding.',
      '',
      '| runtime | minified | min+gzip | × ours | target |',
      '| --- | --- | --- | --- | --- |',
      ...rows,
    ].join('\n'),
  }
}
