import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { launchChromium, serveStatic } from './plugin/bundlers'

const repo = new URL('../', import.meta.url).pathname
let dir: string
let browser: Browser
let server: Awaited<ReturnType<typeof serveStatic>>

/**
 * A page that starts as the docs say (docs/choosing-the-locale.md): the built runtime, three configured
 * locales, the negotiated locale switched to, and later switches remembered.
 */
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tms-negotiate-'))
  copyFileSync(join(repo, 'dist/runtime.mjs'), join(dir, 'runtime.mjs'))
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><html><body><script type="module">
import { _r, getLocale, negotiateLocale, rememberLocale, setLocale } from './runtime.mjs'
const none = async () => ({ default: {} })
_r('en', { fr: none, 'de-CH': none })
await setLocale(negotiateLocale())
rememberLocale()
window.switchTo = setLocale
document.body.dataset.locale = getLocale()
</script></body></html>`,
  )
  server = await serveStatic(dir)
  browser = await launchChromium()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

async function chosen(locale: string, path = '/index.html'): Promise<string | null> {
  const context = await browser.newContext({ locale })
  try {
    const page = await context.newPage()
    await page.goto(`${server.url}${path}`)
    return await page.locator('body[data-locale]').getAttribute('data-locale')
  } finally {
    await context.close()
  }
}

test("the page starts in the browser's language, matched to a configured locale, else the source locale", async () => {
  expect([
    await chosen('fr-CA'),
    await chosen('de-CH'),
    await chosen('de-DE'),
    await chosen('es-ES'),
  ]).toEqual(['fr', 'de-CH', 'de-CH', 'en'])
}, 120_000)

test('?lang= wins over the browser language', async () => {
  expect(await chosen('fr-CA', '/index.html?lang=de-CH')).toBe('de-CH')
}, 120_000)

test('a switch is remembered in the cookie and storage, and the next visit starts there', async () => {
  const context = await browser.newContext({ locale: 'es-ES' })
  try {
    const page = await context.newPage()
    await page.goto(`${server.url}/index.html`)
    expect(await page.locator('body[data-locale]').getAttribute('data-locale')).toBe('en')
    await page.evaluate(() => (window as unknown as { switchTo(l: string): Promise<void> }).switchTo('fr'))
    expect(await page.evaluate(() => [document.cookie, localStorage.getItem('lang')])).toEqual([
      'lang=fr',
      'fr',
    ])
    await page.reload()
    expect(await page.locator('body[data-locale]').getAttribute('data-locale')).toBe('fr')
  } finally {
    await context.close()
  }
}, 120_000)
