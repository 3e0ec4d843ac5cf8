import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import type { BenchSection } from '../run'

const BUDGET = 1024
const repo = new URL('../../', import.meta.url).pathname

/**
 * What each library adds to a bundle for the same job: translate one message with a value and switch
 * the locale. Each entry is bundled by esbuild (minified, ESM, browser) with everything it imports,
 * then gzipped at level 9.
 */
const ENTRIES: { name: string; note: string; code: string }[] = [
  {
    name: 'unplugin-tms/runtime',
    note: 'this package',
    code: `import { t, setLocale } from '${repo}dist/runtime.mjs'
      setLocale('fr-FR'); console.log(t('Hello {name}!', { name: 'Ada' }))`,
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
  for (const entry of ENTRIES) {
    const { min, gzip } = await minGzip(entry.code)
    if (entry.name === 'unplugin-tms/runtime') ours = gzip
    const target =
      entry.name === 'unplugin-tms/runtime' ? `<= ${BUDGET} B ${gzip <= BUDGET ? '(met)' : '(MISSED)'}` : ''
    rows.push(
      `| \`${entry.name}\` (${entry.note}) | ${min} B | ${gzip} B | ${ours && entry.name !== 'unplugin-tms/runtime' ? `${(gzip / ours).toFixed(1)}×` : ''} | ${target} |`,
    )
  }
  return {
    title: 'Runtime size',
    markdown: [
      'Each library bundled by esbuild (minified, ESM) for the same job: one message with a value, one locale switch.',
      '',
      '| runtime | minified | min+gzip | × ours | target |',
      '| --- | --- | --- | --- | --- |',
      ...rows,
    ].join('\n'),
  }
}
