import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build, type Plugin } from 'vite'
import type { Options } from '../../src/options'
import type { BenchSection } from '../run'

/**
 * What the plugin costs a vite build: a 2,000-module app (one module in five has message calls),
 * built with and without the plugin in alternating pairs, offline (no service), so the figure is the
 * build start (glob, extraction from its caches, catalogs), the transform and the virtual modules.
 * vite 8 builds this app in a fraction of a second, so the fixed build-start cost shows as a large
 * ratio: the added milliseconds are the figure to watch.
 */

const MODULES = 2000
const PAIRS = 7

function writeApp(root: string): void {
  mkdirSync(join(root, 'src'), { recursive: true })
  writeFileSync(join(root, 'package.json'), '{ "name": "bench-app", "private": true, "type": "module" }\n')
  writeFileSync(
    join(root, 'index.html'),
    '<!doctype html><html><body><script type="module" src="/src/m0.js"></script></body></html>\n',
  )
  for (let i = 0; i < MODULES; i++) {
    const children = [2 * i + 1, 2 * i + 2].filter((c) => c < MODULES)
    const imports = children.map((c) => `import { f${c} } from './m${c}.js'\n`).join('')
    const calls = children.map((c) => `f${c}()`).join(' + ')
    const own =
      i % 5 === 0
        ? `t('Message number ${i} for {name}', { name: 'x' })`
        : `'plain text of module ${i}'.toUpperCase()`
    const runtime = i % 5 === 0 ? "import { t } from 'unplugin-tms/runtime'\n" : ''
    writeFileSync(
      join(root, 'src', `m${i}.js`),
      `${runtime}${imports}export function f${i}() {\n  return ${own}${calls ? ` + ${calls}` : ''}\n}\n${i === 0 ? 'document.body.textContent = f0()\n' : ''}`,
    )
  }
}

async function timeBuild(root: string, plugins: Plugin[]): Promise<number> {
  const start = performance.now()
  await build({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins,
    build: { outDir: join(root, 'dist'), emptyOutDir: true },
  })
  return performance.now() - start
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

export async function run(): Promise<BenchSection> {
  // The built package, as users get it (`npm run bench` builds first); a URL so that type checking does
  // not need dist/.
  const entry = new URL('../../dist/vite.mjs', import.meta.url).href
  const { default: tms } = (await import(entry)) as { default: (options: Options) => Plugin }
  const root = mkdtempSync(join(tmpdir(), 'tms-bench-plugin-'))
  try {
    writeApp(root)
    // The app's own `t` still resolves without the plugin: the runtime file itself.
    const bare: Plugin = {
      name: 'bare-runtime',
      resolveId: (id) => (id === 'unplugin-tms/runtime' ? join(process.cwd(), 'dist/runtime.mjs') : null),
    }
    const withPlugin = () =>
      tms({ root, locales: ['fr-FR', 'de-DE'], pseudo: true, cache: 'offline', report: false })
    await timeBuild(root, [bare])
    await timeBuild(root, [withPlugin()])
    const plain: number[] = []
    const tmsRuns: number[] = []
    for (let i = 0; i < PAIRS; i++) {
      plain.push(await timeBuild(root, [bare]))
      tmsRuns.push(await timeBuild(root, [withPlugin()]))
    }
    const ratio = median(tmsRuns) / median(plain)
    const added = median(tmsRuns) - median(plain)
    const catalogs = readdirSync(join(root, 'dist/assets')).filter((f) => f.startsWith('tms-')).length
    return {
      title: 'Plugin cost in a vite build',
      markdown: [
        `${MODULES} modules, ${MODULES / 5} with a message call, ${PAIRS} alternating pairs, medians.`,
        '',
        '| figure | value | target |',
        '| --- | --- | --- |',
        `| vite build without the plugin | ${median(plain).toFixed(0)} ms | |`,
        `| vite build with the plugin (offline) | ${median(tmsRuns).toFixed(0)} ms | |`,
        `| added by the plugin | ${added.toFixed(0)} ms (x${ratio.toFixed(2)}) | <= 150 ms ${added <= 150 ? '(met)' : '(MISSED)'} |`,
        `| catalog chunks emitted | ${catalogs} | 3 (fr-FR, de-DE, en-XA) |`,
      ].join('\n'),
    }
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}
