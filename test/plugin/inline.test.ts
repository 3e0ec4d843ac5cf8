import { execFile } from 'node:child_process'
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import type { Browser } from 'playwright-core'
import { rolldown } from 'rolldown'
import { rollup } from 'rollup'
import { build as viteBuild } from 'vite'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import webpack from 'webpack'
import { pseudoLocalize } from '../../src/core/model/pseudo'
import tmsEsbuild from '../../src/esbuild'
import type { Options } from '../../src/options'
import tmsRolldown from '../../src/rolldown'
import tmsRollup from '../../src/rollup'
import tmsRspack from '../../src/rspack'
import tmsVite from '../../src/vite'
import tmsWebpack from '../../src/webpack'
import { onFreePort } from '../helpers/listen'
import { type LikeCompiler, launchChromium, runWebpackLike, serveStatic, webpackConfig } from './bundlers'
import {
  type InlineProject,
  MESSAGES,
  originalPosition,
  renderedIn,
  SOURCE_LOCALE,
  setupInlineProject,
  TARGETS,
  textIn,
  translate,
  treeOf,
} from './inline-helpers'

/**
 * Inline mode end to end: the fixture app (an entry, a lazy chunk with messages, a lazy chunk without,
 * CSS, a public file) built once with ten target locales from an offline cache, then each copy loaded
 * in Chromium (vite) or Node (rollup, rolldown, webpack, rspack).
 */

const ALL = [SOURCE_LOCALE, ...TARGETS]
let project: InlineProject
let browser: Browser
let viteOut: string

beforeAll(async () => {
  project = await setupInlineProject()
  browser = await launchChromium()
  viteOut = join(project.root, 'dist-vite')
  await viteBuild({
    root: project.root,
    configFile: false,
    logLevel: 'silent',
    plugins: [tmsVite(project.options())],
    build: { outDir: viteOut, emptyOutDir: true, sourcemap: true },
  })
}, 60_000)

afterAll(async () => {
  await browser?.close()
  project?.close()
})

/** The copy's files that a browser or Node reads as text (not the source maps). */
function shippedText(outDir: string, locale: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const [file, bytes] of treeOf(join(outDir, locale))) {
    if (/\.(?:m?js|html|css)$/.test(file)) out.set(file, bytes.toString('utf8'))
  }
  return out
}

/** The literal fragments of a locale's texts (placeholders split them in the code). */
function fragments(locale: string): string[] {
  const text = textIn(locale)
  return MESSAGES.flatMap((m) => text(m).split(/\{[^}]*\}/))
    .map((f) => f.trim())
    .filter((f) => f.length >= 4)
}

function expectOnlyItsOwnLanguage(outDir: string, locales: readonly string[]): void {
  for (const locale of locales) {
    const code = [...shippedText(outDir, locale).values()].join('\n')
    for (const own of fragments(locale)) expect(code, `${locale} has ${own}`).toContain(own)
    for (const other of locales) {
      if (other === locale) continue
      for (const foreign of fragments(other)) {
        expect(
          code.includes(foreign),
          `the ${locale} copy holds ${JSON.stringify(foreign)} of ${other}`,
        ).toBe(false)
      }
    }
  }
}

describe('vite, ten target locales, one build', () => {
  test('yields eleven complete copies next to the report', () => {
    expect(readdirSync(viteOut).sort()).toEqual([...ALL, 'favicon.svg', 'tms-report.json'].sort())
    for (const locale of ALL) {
      const files = [...treeOf(join(viteOut, locale)).keys()]
        .map((f) => f.replace(/-[\w-]{8}\./, '-#.'))
        .sort()
      expect(files).toEqual([
        'assets/index-#.css',
        'assets/index-#.js',
        'assets/index-#.js.map',
        'assets/lazy-#.js',
        'assets/lazy-#.js.map',
        'assets/plain-#.js',
        'assets/plain-#.js.map',
        'favicon.svg',
        'index.html',
      ])
    }
    const report = JSON.parse(readFileSync(join(viteOut, 'tms-report.json'), 'utf8'))
    expect(Object.keys(report.locales)).toEqual([...TARGETS].sort())
  })

  test('each copy, loaded in Chromium from its own directory, shows its own language', async () => {
    const server = await serveStatic(viteOut)
    try {
      for (const locale of ALL) {
        const page = await browser.newPage()
        const errors: string[] = []
        const requests: string[] = []
        page.on('pageerror', (e) => errors.push(e.message))
        page.on('request', (r) => requests.push(new URL(r.url()).pathname))
        page.on('response', (r) => {
          if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`)
        })
        await page.goto(`${server.url}/${locale}/index.html`)
        await page.waitForFunction(() => document.querySelector('#out')?.textContent?.endsWith('6'))
        const seen = await page.evaluate(async () => {
          const app = (window as unknown as { app: Record<string, (...a: string[]) => unknown> }).app
          const switched = await Promise.resolve(app.setLocale!('pl-PL')).then(
            () => 'switched',
            (e: Error) => e.message,
          )
          return {
            render: app.render!() as string[],
            painted: document.querySelector('#out')!.textContent,
            locale: app.getLocale!(),
            lang: document.documentElement.lang,
            color: getComputedStyle(document.querySelector('#out')!).whiteSpace,
            switched,
          }
        })
        await page.close()
        const expected = renderedIn(textIn(locale))
        expect(seen).toEqual({
          render: expected,
          painted: expected.join('\n'),
          locale,
          lang: locale,
          color: 'pre-line',
          switched:
            locale === 'pl-PL'
              ? 'switched'
              : `[unplugin-tms] this page is the ${locale} copy of an inline build (mode: 'inline'): switching to pl-PL means loading the pl-PL copy (its own directory of the build output)`,
        })
        expect(errors).toEqual([])
        // Every file the page asked for is in its own copy: the page, its chunks, its CSS.
        expect(requests.filter((r) => !r.startsWith(`/${locale}/`))).toEqual([])
        expect(requests.filter((r) => /\.(js|css)$/.test(r)).length).toBe(4)
      }
    } finally {
      await server.close()
    }
  })

  test('no copy holds a string of another locale, and each holds its own', () => {
    expectOnlyItsOwnLanguage(viteOut, ALL)
    for (const locale of ALL) {
      for (const text of shippedText(viteOut, locale).values()) {
        expect(text).not.toMatch(/__tms_l\(|__tms_locale|__TMS_CATALOG__/)
      }
    }
  })

  test('hashed names are true to the content of each copy', () => {
    const contentOf = new Map<string, Set<string>>()
    const byRole = {
      index: new Set<string>(),
      lazy: new Set<string>(),
      plain: new Set<string>(),
      css: new Set<string>(),
    }
    for (const locale of ALL) {
      for (const [file, bytes] of treeOf(join(viteOut, locale))) {
        if (!file.startsWith('assets/')) continue
        const seen = contentOf.get(file) ?? new Set()
        seen.add(bytes.toString('base64'))
        contentOf.set(file, seen)
        if (/^assets\/index-.*\.js$/.test(file)) byRole.index.add(file)
        if (/^assets\/lazy-.*\.js$/.test(file)) byRole.lazy.add(file)
        if (/^assets\/plain-.*\.js$/.test(file)) byRole.plain.add(file)
        if (file.endsWith('.css')) byRole.css.add(file)
      }
    }
    // A name never stands for two contents.
    for (const [file, contents] of contentOf) expect(contents.size, file).toBe(1)
    // Translated chunks get a name per locale; the chunk and the CSS without text keep one name.
    expect(byRole.index.size).toBe(11)
    expect(byRole.lazy.size).toBe(11)
    expect(byRole.plain.size).toBe(1)
    expect(byRole.css.size).toBe(1)
  })

  test('the source maps of a copy lead each translated call back to its original file and line', () => {
    const dir = join(viteOut, 'fr-FR', 'assets')
    const check = (chunkPrefix: string, needle: string, file: string, sourceLine: string) => {
      const name = readdirSync(dir).find((f) => f.startsWith(chunkPrefix) && f.endsWith('.js'))!
      const code = readFileSync(join(dir, name), 'utf8')
      const map = JSON.parse(readFileSync(join(dir, `${name}.map`), 'utf8'))
      expect(map.file).toBe(name)
      const at = code.indexOf(needle)
      expect(at).toBeGreaterThan(0)
      const line = code.slice(0, at).split('\n').length - 1
      const column = at - (code.lastIndexOf('\n', at - 1) + 1)
      const found = originalPosition(map, line, column)!
      expect(resolve(dir, map.sourceRoot ?? '', found.source!)).toBe(join(project.root, 'src', file))
      const original = readFileSync(join(project.root, 'src', file), 'utf8').split('\n')
      expect(found.line).toBe(original.findIndex((l) => l.includes(sourceLine)) + 1)
    }
    check(
      'index-',
      JSON.stringify(translate('Welcome to the shop', 'fr-FR')),
      'greet.js',
      'Welcome to the shop',
    )
    check('index-', '"Ifmmp ".concat', 'greet.js', 'Hello {name}!')
    // After the replacements on the same line: the shift is right.
    check('index-', '[1,2,3]', 'main.js', 'total([1, 2, 3])')
    check(
      'lazy-',
      JSON.stringify(translate('Your order has shipped', 'fr-FR')),
      'lazy.js',
      'Your order has shipped',
    )
  })
})

const run = promisify(execFile)

/** Each copy's entry run in Node: its text after the lazy chunks load, its locale, a switch attempt. */
async function renderCopy(entry: string): Promise<{ render: string[]; locale: string; switched: string }> {
  const script = `
    const app = await import(${JSON.stringify(pathToFileURL(entry).href)})
    await app.load()
    const switched = await app.setLocale('zz-ZZ').then(() => 'switched', (e) => e.message)
    process.stdout.write(JSON.stringify({ render: app.render(), locale: app.getLocale(), switched }))
  `
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { timeout: 20_000 })
  return JSON.parse(stdout)
}

async function expectCopiesRender(outDir: string, entry: string, locales: readonly string[]): Promise<void> {
  expect(readdirSync(outDir).sort()).toEqual([...locales, 'tms-report.json'].sort())
  for (const locale of locales) {
    expect(await renderCopy(join(outDir, locale, entry))).toEqual({
      render: renderedIn(textIn(locale)),
      locale,
      switched: '[unplugin-tms] unknown locale "zz-ZZ"',
    })
  }
}

const FEW = ['fr-FR', 'de-DE']

async function rollupBuild(options: Options, outDir: string): Promise<void> {
  const bundle = await rollup({
    input: join(project.root, 'src/main.js'),
    plugins: [tmsRollup(options)],
    onLog() {},
  })
  await bundle.write({ dir: outDir, format: 'es', sourcemap: true })
  await bundle.close()
}

/** Where `t('Welcome to the shop')` starts on line 3 of the fixture's greet.js (0-based). */
const WELCOME_CALL_COLUMN = 'export const welcome = () => '.length

/** A production build with source maps (to check positions in the copies). */
async function webpackLikeBuild(
  create: (config: object) => LikeCompiler,
  plugin: unknown,
  outDir: string,
  extra: object = {},
): Promise<void> {
  const config = webpackConfig(project.root, outDir, plugin, 'production')
  await runWebpackLike(create, { ...config, devtool: 'source-map', ...extra })
}

describe('rollup', () => {
  test('each copy runs in its own language, with source maps into the sources', async () => {
    const outDir = join(project.root, 'dist-rollup')
    await rollupBuild(project.options({ locales: FEW }), outDir)
    await expectCopiesRender(outDir, 'main.js', [SOURCE_LOCALE, ...FEW])
    expectOnlyItsOwnLanguage(outDir, [SOURCE_LOCALE, ...FEW])
    const map = JSON.parse(readFileSync(join(outDir, 'de-DE', 'main.js.map'), 'utf8'))
    const code = readFileSync(join(outDir, 'de-DE', 'main.js'), 'utf8')
    const at = code.indexOf(JSON.stringify(translate('Welcome to the shop', 'de-DE')))
    const line = code.slice(0, at).split('\n').length - 1
    const found = originalPosition(map, line, at - (code.lastIndexOf('\n', at - 1) + 1))!
    expect(resolve(outDir, 'de-DE', found.source!)).toBe(join(project.root, 'src/greet.js'))
    expect(found.line).toBe(3)
    // The start of the original call, as in runtime mode, not its end.
    expect(found.column).toBe(WELCOME_CALL_COLUMN)
  })

  test('pseudo-locales get copies like any other locale', async () => {
    const outDir = join(project.root, 'dist-rollup-pseudo')
    await rollupBuild(project.options({ locales: ['fr-FR'], pseudo: ['en-XA', 'ar-XB'] }), outDir)
    expect(readdirSync(outDir).sort()).toEqual(['ar-XB', 'en-US', 'en-XA', 'fr-FR', 'tms-report.json'])
    for (const locale of ['en-XA', 'ar-XB'] as const) {
      const copy = await renderCopy(join(outDir, locale, 'main.js'))
      expect(copy.render).toEqual(renderedIn((s) => pseudoLocalize(s, locale)))
      expect(copy.locale).toBe(locale)
    }
  })
})

describe('webpack', () => {
  test('each copy runs in its own language; hashed chunk names follow each copy', async () => {
    const outDir = join(project.root, 'dist-webpack')
    await webpackLikeBuild(
      (c) => webpack(c as webpack.Configuration) as never,
      tmsWebpack(project.options({ locales: FEW })),
      outDir,
    )
    const locales = [SOURCE_LOCALE, ...FEW]
    await expectCopiesRender(outDir, 'main.mjs', locales)
    expectOnlyItsOwnLanguage(outDir, locales)
    const chunks = locales.map((l) =>
      readdirSync(join(outDir, l))
        .filter((f) => /^\d+\.[0-9a-f]{20}\.mjs$/.test(f))
        .sort(),
    )
    // Two lazy chunks per copy: the one with messages is named per locale, the other keeps one name.
    const all = new Set(chunks.flat())
    expect(chunks.every((c) => c.length === 2)).toBe(true)
    expect(all.size).toBe(4)
    const map = JSON.parse(readFileSync(join(outDir, 'fr-FR', 'main.mjs.map'), 'utf8'))
    const code = readFileSync(join(outDir, 'fr-FR', 'main.mjs'), 'utf8')
    const at = code.indexOf(JSON.stringify(translate('Welcome to the shop', 'fr-FR')))
    const found = originalPosition(
      map,
      code.slice(0, at).split('\n').length - 1,
      at - (code.lastIndexOf('\n', at - 1) + 1),
    )!
    expect(found.source).toMatch(/src\/greet\.js$/)
    expect(found.line).toBe(3)
    expect(found.column).toBe(WELCOME_CALL_COLUMN)
  })

  test("the stats list each copy's files under the entrypoint and its chunk", async () => {
    const outDir = join(project.root, 'dist-webpack-stats')
    const plugin = tmsWebpack(project.options({ locales: FEW }))
    const config = { ...webpackConfig(project.root, outDir, plugin, 'production'), devtool: 'source-map' }
    const compiler = webpack(config as webpack.Configuration)
    const stats = await new Promise<webpack.Stats>((done, fail) =>
      compiler.run((error, result) => (error ? fail(error) : done(result!))),
    )
    await new Promise<void>((done) => compiler.close(() => done()))
    const json = stats.toJson({ all: false, entrypoints: true, chunkGroupAuxiliary: true, chunks: true })
    const main = json.entrypoints!.main!
    const locales = [SOURCE_LOCALE, ...FEW]
    const names = (assets: { name: string }[] | undefined) => assets!.map((a) => a.name).sort()
    expect(names(main.assets)).toEqual(locales.map((l) => `${l}/main.mjs`).sort())
    expect(names(main.auxiliaryAssets)).toEqual(locales.map((l) => `${l}/main.mjs.map`).sort())
    // Every file a chunk lists is one the build wrote.
    const written = new Set(locales.flatMap((l) => readdirSync(join(outDir, l)).map((f) => `${l}/${f}`)))
    for (const chunk of json.chunks!) {
      expect(chunk.files!.length).toBe(locales.length)
      for (const file of [...chunk.files!, ...chunk.auxiliaryFiles!]) expect(written).toContain(file)
    }
  })

  test("devtool 'eval' hides the calls in strings: the build fails naming the option", async () => {
    const outDir = join(project.root, 'dist-webpack-eval')
    await expect(
      webpackLikeBuild(
        (c) => webpack(c as webpack.Configuration) as never,
        tmsWebpack(project.options({ locales: FEW })),
        outDir,
        {
          mode: 'development',
          devtool: 'eval',
        },
      ),
    ).rejects.toThrow(/mode: 'inline' cannot replace \d+ message call\(s\) in main\.mjs: .*devtool 'eval'/)
  })
})

describe('rolldown and rspack', () => {
  test('rolldown: each copy runs in its own language', async () => {
    const outDir = join(project.root, 'dist-rolldown')
    const bundle = await rolldown({
      input: join(project.root, 'src/main.js'),
      plugins: [tmsRolldown(project.options({ locales: FEW }))],
      onLog() {},
    })
    await bundle.write({ dir: outDir, format: 'es', minify: true, sourcemap: true })
    await bundle.close()
    await expectCopiesRender(outDir, 'main.js', [SOURCE_LOCALE, ...FEW])
  })

  test('rspack: each copy runs in its own language', async () => {
    const { rspack } = await import('@rspack/core')
    const outDir = join(project.root, 'dist-rspack')
    await webpackLikeBuild(
      (c) => rspack(c as never) as never,
      tmsRspack(project.options({ locales: FEW })),
      outDir,
    )
    await expectCopiesRender(outDir, 'main.mjs', [SOURCE_LOCALE, ...FEW])
  })
})

test('esbuild cannot make the copies: an error at setup names the option', () => {
  expect(() => tmsEsbuild(project.options())).toThrow(
    "[unplugin-tms] mode: 'inline' is not available with esbuild: use vite, rollup, rolldown, webpack or rspack for inline builds, or mode: 'runtime' with esbuild",
  )
  try {
    tmsEsbuild(project.options())
  } catch (error) {
    expect((error as { option?: string }).option).toBe('mode')
  }
})

test('mode from tms.config.json: vite makes the copies, esbuild fails at build start naming the option', async () => {
  const config = join(project.root, 'tms.config.json')
  writeFileSync(config, '{ "mode": "inline" }\n')
  try {
    const { mode: _mode, ...options } = project.options({ locales: FEW })
    const outDir = join(project.root, 'dist-config')
    await viteBuild({
      root: project.root,
      configFile: false,
      logLevel: 'silent',
      plugins: [tmsVite(options)],
      build: { outDir, emptyOutDir: true },
    })
    expect(readdirSync(outDir).sort()).toEqual(
      [...FEW, SOURCE_LOCALE, 'favicon.svg', 'tms-report.json'].sort(),
    )
    expect(readFileSync(join(outDir, 'de-DE', 'index.html'), 'utf8')).toContain('src="/de-DE/assets/index-')
    const esbuild = await import('esbuild')
    await expect(
      esbuild.build({
        absWorkingDir: project.root,
        entryPoints: ['src/main.js'],
        bundle: true,
        format: 'esm',
        outdir: join(project.root, 'dist-esbuild'),
        logLevel: 'silent',
        plugins: [tmsEsbuild(options)],
      }),
    ).rejects.toThrow("mode: 'inline' is not available with esbuild")
  } finally {
    rmSync(config)
  }
})

test('the dev server runs runtime mode: one app, locale switching', async () => {
  const { createServer } = await import('vite')
  const server = await createServer({
    root: project.root,
    configFile: false,
    logLevel: 'silent',
    plugins: [tmsVite(project.options({ locales: FEW }))],
    server: { port: 0, host: '127.0.0.1' },
  })
  await onFreePort(() => server.listen())
  try {
    const url = server.resolvedUrls!.local[0]!
    const page = await browser.newPage()
    await page.goto(url)
    await page.waitForFunction(() => document.querySelector('#out')?.textContent?.endsWith('6'))
    const texts = await page.evaluate(async () => {
      const app = (window as unknown as { app: Record<string, (...a: string[]) => unknown> }).app
      await app.setLocale!('de-DE')
      return { render: app.render!(), lang: document.documentElement.lang }
    })
    await page.close()
    expect(texts).toEqual({ render: renderedIn(textIn('de-DE')), lang: 'en' })
  } finally {
    await server.close()
  }
})
