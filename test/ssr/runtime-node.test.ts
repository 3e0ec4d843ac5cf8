import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { build as esbuild } from 'esbuild'
import { describe, expect, it, vi } from 'vitest'

const REPO = fileURLToPath(new URL('../../', import.meta.url))

// A fresh copy of the server runtime (and the browser runtime it extends) per test: they hold state.
async function fresh() {
  vi.resetModules()
  return await import('../../src/runtime/node')
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('server runtime', () => {
  it('gives each runWithLocale its locale and catalog across awaits, while others run at once', async () => {
    const rt = await fresh()
    const loads: string[] = []
    const catalog = (locale: string, text: string) => async () => {
      loads.push(locale)
      await tick(5)
      return { default: { a: text } }
    }
    rt._r('en-US', { 'fr-FR': catalog('fr-FR', 'Bonjour {name}'), 'de-DE': catalog('de-DE', 'Hallo {name}') })
    const render = (delay: number) => async () => {
      const before = `${rt.getLocale()}:${rt._l('a', 'Hello {name}', { name: 'Ada' })}`
      await tick(delay)
      await Promise.resolve()
      return `${before} ${rt.getLocale()}:${rt._l('a', 'Hello {name}', { name: 'Ada' })}`
    }
    const pages = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        rt.runWithLocale(['en-US', 'fr-FR', 'de-DE'][i % 3]!, render(30 - i)),
      ),
    )
    expect(new Set(pages)).toEqual(
      new Set([
        'en-US:Hello Ada en-US:Hello Ada',
        'fr-FR:Bonjour Ada fr-FR:Bonjour Ada',
        'de-DE:Hallo Ada de-DE:Hallo Ada',
      ]),
    )
    expect(pages.filter((p) => p.startsWith('fr-FR'))).toHaveLength(10)
    // Loaded once per process, though ten requests of each asked at once.
    expect(loads.sort()).toEqual(['de-DE', 'fr-FR'])
    // Outside any request: the process's default, untouched by the requests.
    expect(rt.getLocale()).toBe('en-US')
    expect(rt._l('a', 'Hello {name}', { name: 'Ada' })).toBe('Hello Ada')
  })

  it('sourceCatalog: runWithLocale of the source locale loads its catalog once; outside, a lookup gives its id', async () => {
    const rt = await fresh()
    const loads: string[] = []
    rt._r('en-US', {
      'en-US': async () => {
        loads.push('en-US')
        return { default: { a: 'Hello {name}' } }
      },
      'fr-FR': async () => ({ default: { a: 'Bonjour {name}' } }),
    })
    const render = () => `${rt.getLocale()}:${rt._l('a', 0, { name: 'Ada' })}`
    const pages = await Promise.all([
      rt.runWithLocale('en-US', render),
      rt.runWithLocale('fr-FR', render),
      rt.runWithLocale('en-US', render),
    ])
    expect(pages).toEqual(['en-US:Hello Ada', 'fr-FR:Bonjour Ada', 'en-US:Hello Ada'])
    expect(loads).toEqual(['en-US'])
    expect(rt.getLocales()).toEqual(['en-US', 'fr-FR'])
    // Outside any request, before any setLocale: no catalog, the id.
    expect(render()).toBe('en-US:a')
  })

  it('setLocale inside a request switches that request only; outside, the default', async () => {
    const rt = await fresh()
    rt._r('en-US', { 'fr-FR': async () => ({ default: { a: 'fr' } }) })
    const seen: string[] = []
    rt.onLocaleChange((l) => seen.push(l))
    let release!: () => void
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    const other = rt.runWithLocale('en-US', async () => {
      await held
      return rt._l('a', 'src')
    })
    const switched = await rt.runWithLocale('en-US', async () => {
      await rt.setLocale('fr-FR')
      return `${rt.getLocale()} ${rt._l('a', 'src')}`
    })
    release()
    expect([switched, await other]).toEqual(['fr-FR fr', 'src'])
    expect(seen).toEqual([])
    await rt.setLocale('fr-FR')
    expect([rt.getLocale(), rt._l('a', 'src'), seen]).toEqual(['fr-FR', 'fr', ['fr-FR']])
  })

  it('rejects an unknown locale, and loads a failed catalog again on the next request', async () => {
    const rt = await fresh()
    let attempts = 0
    rt._r('en-US', {
      'fr-FR': async () => {
        attempts++
        if (attempts === 1) throw new Error('chunk missing')
        return { default: { a: 'fr' } }
      },
    })
    await expect(rt.runWithLocale('xx-YY', () => 'never')).rejects.toThrow(
      '[unplugin-tms] unknown locale "xx-YY"',
    )
    await expect(rt.runWithLocale('fr-FR', () => 'never')).rejects.toThrow('chunk missing')
    expect(await rt.runWithLocale('fr-FR', () => rt._l('a', 'src'))).toBe('fr')
    expect(attempts).toBe(2)
  })

  it("rejects Object.prototype's names as unknown locales, in a request and outside", async () => {
    const rt = await fresh()
    rt._r('en-US', { 'fr-FR': async () => ({ default: { a: 'fr' } }) })
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const unknown = new Error(`[unplugin-tms] unknown locale "${name}"`)
      await expect(rt.runWithLocale(name, () => 'never')).rejects.toThrow(unknown)
      await expect(rt.setLocale(name)).rejects.toThrow(unknown)
      await expect(rt.runWithLocale('fr-FR', () => rt.setLocale(name))).rejects.toThrow(unknown)
    }
  })

  it('works untransformed (an app unit test): the source text, the request locale', async () => {
    const rt = await fresh()
    expect(await rt.runWithLocale('fr-FR', () => `${rt.getLocale()} ${rt.t('Hello {n}', { n: 1 })}`)).toBe(
      'fr-FR Hello 1',
    )
  })
})

describe('the node export condition of unplugin-tms/runtime', () => {
  it('gives Node the server runtime and a browser bundle the browser runtime', async () => {
    const run = promisify(execFile)
    const script = "const rt = await import('unplugin-tms/runtime'); console.log(typeof rt.runWithLocale)"
    // From the repository, whose package.json names the package: Node resolves the name to itself.
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: REPO })
    expect(stdout.trim()).toBe('function')
    const browser = await esbuild({
      stdin: { contents: "export * from 'unplugin-tms/runtime'", resolveDir: REPO, loader: 'js' },
      bundle: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
    })
    const code = browser.outputFiles[0]!.text
    expect(code).toContain('function setLocale(')
    expect(code).not.toMatch(/AsyncLocalStorage|node:|runWithLocale/)
  })
})
