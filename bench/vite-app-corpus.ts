/**
 * The generated vite apps of the build benchmarks: modules of ordinary app code around two messages
 * (one with a placeholder), timed vite builds, and the median of the rounds.
 */
import { join } from 'node:path'
import type { Plugin } from 'vite'
import { build } from 'vite'

export interface AppModule {
  /** The module's export is `view${index}`. */
  index: number
  /** The number in the module's messages and ids, unique across the app. */
  n: number
  /** How many helper functions pad the module (each about 400 bytes). */
  helpers: number
  /** Whether the view also sums its rows (a little more code per module). */
  total?: boolean
}

export function appModuleSource({ index, n, helpers, total = false }: AppModule): string {
  const code = Array.from(
    { length: helpers },
    (_, k) => `
function helper${k}(items, factor = ${k + 1}) {
  const out = []
  for (const item of items) {
    if (item == null || typeof item.value !== 'number') continue
    out.push({ id: item.id ?? ${n * 10 + k}, value: Math.round(item.value * factor * 100) / 100, label: String(item.label ?? '').trim() })
  }
  return out.sort((a, b) => a.value - b.value).slice(0, ${10 + k})
}`,
  ).join('\n')
  const names = Array.from({ length: helpers }, (_, k) => `helper${k}`).join(', ')
  const sum = total ? ', total: rows.reduce((s, r) => s + r.value, 0)' : ''
  return [
    "import { t } from 'unplugin-tms/runtime'",
    code,
    `export function view${index}(name, items = []) {`,
    `  const title = t('Title of section ${n}')`,
    `  const rows = [${names}].flatMap((h) => h(items))`,
    `  return { title, greeting: t('Hello {name}, this is module ${n}', { name }), rows${sum} }`,
    '}',
    '',
  ].join('\n')
}

/** One minified vite build of the app at `root` into `root/outDir`, in seconds from the call until it returns. */
export async function timedViteBuild(root: string, plugins: Plugin[], outDir: string): Promise<number> {
  const t0 = performance.now()
  await build({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins,
    build: { outDir: join(root, outDir), emptyOutDir: true, minify: true },
  })
  return (performance.now() - t0) / 1000
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]!
}
