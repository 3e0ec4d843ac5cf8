import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { createServer, type ViteDevServer } from 'vite'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createClient, type TmsClient } from '../../src/client/index'
import { pseudoLocalize } from '../../src/core/model/pseudo'
import tmsVite from '../../src/vite'
import { onFreePort } from '../helpers/listen'
import { control } from '../helpers/sync'
import { launchChromium } from '../plugin/bundlers'
import {
  type OverlayProject,
  openOverlayPage,
  PROJECT,
  type ReceivedBody,
  SECRET,
  setupOverlayProject,
} from './project'

/**
 * The review overlay of `vite serve` in Chromium, on the overlay fixture app against the emulator:
 * from a text of the page to its message, its string and its issues, and back to the service.
 */

const WATCHER = 'reviewer@example.com'
const TIMEOUT = { timeout: 30_000 }

let project: OverlayProject
let client: TmsClient
let browser: Browser
let server: ViteDevServer
let page: Page
let url: string
/** Every body the page received, read as text. */
let bodies: Promise<ReceivedBody>[] = []

beforeAll(async () => {
  project = await setupOverlayProject()
  client = createClient({ baseUrl: project.emu.url, userIdentifier: 'demo-user', userSecret: SECRET })
  await client.issues.createWatcher('demo-account', { email: WATCHER, name: 'Reviewer', enabled: true })
  browser = await launchChromium()
  server = await createServer({
    root: project.root,
    configFile: false,
    logLevel: 'silent',
    plugins: [tmsVite(project.options())],
    server: { host: '127.0.0.1', port: 0 },
  })
  await onFreePort(() => server.listen())
  url = server.resolvedUrls!.local[0]!.replace(/\/$/, '')
  ;({ page, bodies } = await openOverlayPage(browser, url, TIMEOUT))
}, 120_000)

afterAll(async () => {
  await page?.close()
  await browser?.close()
  await server?.close()
  await client?.close()
  await project?.close()
})

async function setLocale(locale: string, welcome: string): Promise<void> {
  await page.evaluate(
    (l) => (window as unknown as { app: { setLocale(l: string): Promise<void> } }).app.setLocale(l),
    locale,
  )
  await page.waitForFunction(
    (text) => document.querySelector('#welcome')?.textContent === text,
    welcome,
    TIMEOUT,
  )
}

const panel = '#tms-overlay [data-tms=panel]'

async function openPanelOn(selector: string): Promise<void> {
  await page.click(selector, { modifiers: ['Alt'] })
  await page.waitForSelector(`${panel} [data-tms=hashcode]`, TIMEOUT)
}

/** `main.js:line:column` of a call in the fixture's main.js. */
function locationOf(call: string): string {
  const lines = readFileSync(join(project.root, 'src/main.js'), 'utf8').split('\n')
  const line = lines.findIndex((l) => l.includes(call))
  return `src/main.js:${line + 1}:${lines[line]!.indexOf(call) + 1}`
}

async function localeStates(): Promise<Record<string, string>> {
  return page.$$eval(`${panel} [data-tms=locales] tr[data-locale]`, (rows) =>
    Object.fromEntries(rows.map((r) => [r.getAttribute('data-locale'), r.children[1]!.textContent])),
  )
}

test('Alt+click on a translated text opens its panel: hashcode, file:line:col, locale states', async () => {
  await setLocale('fr-FR', 'Bienvenue dans la boutique')
  await openPanelOn('#greeting')
  expect(await page.textContent(`${panel} [data-tms=source]`)).toBe('Hello {name}!')
  expect(await page.textContent(`${panel} [data-tms=hashcode]`)).toBe(project.hashcodes.get('Hello {name}!'))
  expect(await page.$$eval(`${panel} [data-tms=location]`, (a) => a.map((x) => x.textContent))).toEqual([
    locationOf("t('Hello {name}!'"),
  ])
  const href = await page.getAttribute(`${panel} [data-tms=location]`, 'href')
  const [, line, column] = locationOf("t('Hello {name}!'").split(':')
  expect(href).toBe(
    `/__open-in-editor?file=${encodeURIComponent(`${join(project.root, 'src/main.js')}:${line}:${column}`)}`,
  )
  expect(await localeStates()).toEqual({
    'fr-FR': 'published',
    'de-DE': 'rejected (published): it drops the placeholder {name}',
    'en-XA': 'pseudo',
  })
  // The page's `button { color: green }` does not reach into the panel.
  const color = await page.$eval(
    `${panel} [data-tms=issue-form] button[type=submit]`,
    (b) => getComputedStyle(b).color,
  )
  expect(color).not.toBe('rgb(0, 128, 0)')
  await page.keyboard.press('Escape')
  await page.waitForSelector(panel, { state: 'hidden', ...TIMEOUT })
})

test('Alt+click on a text no message made opens nothing, and the click goes on to the page', async () => {
  await page.evaluate(() => {
    document.querySelector('#static')!.addEventListener('click', () => {
      ;(window as unknown as { clicked: boolean }).clicked = true
    })
  })
  await page.click('#static', { modifiers: ['Alt'] })
  await page.waitForFunction(
    () => (window as unknown as { clicked?: boolean }).clicked === true,
    undefined,
    TIMEOUT,
  )
  expect(await page.isHidden(panel)).toBe(true)
})

test('a pending and a missing translation show as such', async () => {
  await openPanelOn('#welcome')
  expect(await localeStates()).toEqual({ 'fr-FR': 'published', 'de-DE': 'pending', 'en-XA': 'pseudo' })
  await page.keyboard.press('Escape')
  await openPanelOn('#untranslated')
  expect(await localeStates()).toEqual({ 'fr-FR': 'missing', 'de-DE': 'missing', 'en-XA': 'pseudo' })
  await page.keyboard.press('Escape')
  await page.waitForSelector(panel, { state: 'hidden', ...TIMEOUT })
})

test('from the keyboard: Alt+Shift+M on a focused control opens its panel, with variant, instruction and lengths', async () => {
  await page.focus('#save')
  await page.keyboard.press('Alt+Shift+KeyM')
  await page.waitForSelector(`${panel} [data-tms=hashcode]`, TIMEOUT)
  expect(await page.textContent(`${panel} [data-tms=source]`)).toBe('Save the cart')
  expect(await page.textContent(`${panel} [data-tms=variant]`)).toBe('button')
  expect(await page.textContent(`${panel} [data-tms=instruction]`)).toBe('Keeps the cart for later')
  expect(await page.textContent(`${panel} [data-tms=length]`)).toBe('13 / 16')
  // "Garder le panier pour plus tard" is 31 characters: over the 16 allowed.
  expect(await page.textContent(`${panel} tr[data-locale=fr-FR] td.over`)).toBe('31 / 16 (too long)')
  // The panel took the focus; Escape gives it back to the control.
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('tms-overlay')
  await page.keyboard.press('Escape')
  await page.waitForSelector(panel, { state: 'hidden', ...TIMEOUT })
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('save')
})

interface Notification {
  email: string
  event: string
  issueUid: string
}

async function notifications(): Promise<Notification[]> {
  return ((await control(project.emu, 'GET', '/_emulator/notifications')) as { items: Notification[] }).items
}

test('the form creates an issue on the string; watchers hear of it; comment and resolve round-trip', async () => {
  const hashcode = project.hashcodes.get('Hello {name}!')!
  await openPanelOn('#greeting')
  expect(await page.textContent(`${panel} [data-tms=no-issues]`)).toBe('No issues.')
  expect(await page.textContent(`${panel} [data-tms=issue-locale]`)).toBe('For locale fr-FR')
  await page.selectOption(`${panel} [data-tms=issue-type]`, 'TRANSLATION')
  await page.selectOption(`${panel} [data-tms=issue-subtype]`, 'POOR_TRANSLATION')
  await page.fill(`${panel} [data-tms=issue-text-input]`, 'The space before ! is missing in one place')
  await page.click(`${panel} [data-tms=issue-form] button[type=submit]`)
  await page.waitForSelector(`${panel} li.issue`, TIMEOUT)

  const found = []
  for await (const issue of client.issues.find(PROJECT)) found.push(issue)
  expect(
    found.map((i) => [i.string, i.issueTypeCode, i.issueSubTypeCode, i.issueText, i.issueStateCode]),
  ).toEqual([
    [
      { hashcode, localeId: 'fr-FR' },
      'TRANSLATION',
      'POOR_TRANSLATION',
      'The space before ! is missing in one place',
      'OPENED',
    ],
  ])
  const uid = found[0]!.issueUid
  expect(await page.getAttribute(`${panel} li.issue`, 'data-issue-uid')).toBe(uid)
  expect(await page.textContent(`${panel} li.issue [data-tms=issue-head]`)).toBe(
    'TRANSLATION · POOR_TRANSLATION · fr-FR · OPENED',
  )
  expect((await notifications()).map((n) => [n.email, n.event, n.issueUid])).toEqual([
    [WATCHER, 'issue.opened', uid],
  ])

  await page.fill(`${panel} li.issue [data-tms=comment-text]`, 'Fixed in the next round')
  await page.click(`${panel} li.issue [data-tms=comment-form] button[type=submit]`)
  await page.waitForSelector(`${panel} li.issue [data-tms=comment]`, TIMEOUT)
  expect(await page.textContent(`${panel} li.issue [data-tms=comment]`)).toBe('Fixed in the next round')
  expect((await client.issues.comments(PROJECT, uid)).items.map((c) => c.commentText)).toEqual([
    'Fixed in the next round',
  ])

  await page.click(`${panel} li.issue [data-tms=toggle-state]`)
  await page.waitForSelector(`${panel} li.issue[data-state=RESOLVED]`, TIMEOUT)
  expect((await client.issues.get(PROJECT, uid)).issueStateCode).toBe('RESOLVED')
  expect(await page.textContent(`${panel} li.issue [data-tms=toggle-state]`)).toBe('Reopen')
  await page.click(`${panel} li.issue [data-tms=toggle-state]`)
  await page.waitForSelector(`${panel} li.issue[data-state=OPENED]`, TIMEOUT)
  expect((await client.issues.get(PROJECT, uid)).issueStateCode).toBe('OPENED')
  expect((await notifications()).map((n) => n.event)).toEqual([
    'issue.opened',
    'issue.commented',
    'issue.resolved',
    'issue.opened',
  ])

  // A SOURCE issue takes the source subtypes, and is about the source text whatever the page's locale.
  await page.selectOption(`${panel} [data-tms=issue-type]`, 'SOURCE')
  expect(
    await page.$$eval(`${panel} [data-tms=issue-subtype] option`, (o) => o.map((x) => x.textContent)),
  ).toEqual(['CLARIFICATION', 'MISSPELLING'])
  expect(await page.textContent(`${panel} [data-tms=issue-locale]`)).toBe('On the source text (en-US)')
  await page.selectOption(`${panel} [data-tms=issue-subtype]`, 'CLARIFICATION')
  await page.fill(`${panel} [data-tms=issue-text-input]`, 'Who is greeted here?')
  await page.click(`${panel} [data-tms=issue-form] button[type=submit]`)
  await page.waitForFunction(
    (sel) => document.querySelector('#tms-overlay')!.shadowRoot!.querySelectorAll(sel).length === 2,
    '[data-tms=panel] li.issue',
    TIMEOUT,
  )
  const both = []
  for await (const issue of client.issues.find(PROJECT, { issueTypeCodes: ['SOURCE'] })) both.push(issue)
  expect(both.map((i) => [i.string, i.issueSubTypeCode, i.issueText])).toEqual([
    [{ hashcode, localeId: null }, 'CLARIFICATION', 'Who is greeted here?'],
  ])
  await page.keyboard.press('Escape')
  await page.waitForSelector(panel, { state: 'hidden', ...TIMEOUT })
})

test('with the panel open, a locale switch moves the form to the new locale, and the issue is filed for it', async () => {
  const hashcode = project.hashcodes.get('Hello {name}!')!
  await setLocale('fr-FR', 'Bienvenue dans la boutique')
  await openPanelOn('#greeting')
  expect(await page.textContent(`${panel} [data-tms=issue-locale]`)).toBe('For locale fr-FR')
  // The runtime tells its listeners before setLocale resolves: the note is current once it has.
  await setLocale('de-DE', 'Welcome to the shop')
  expect(await page.textContent(`${panel} [data-tms=issue-locale]`)).toBe('For locale de-DE')
  await page.fill(`${panel} [data-tms=issue-text-input]`, 'Still English in German')
  await page.click(`${panel} [data-tms=issue-form] button[type=submit]`)
  await page.waitForFunction(
    (sel) => document.querySelector('#tms-overlay')!.shadowRoot!.querySelectorAll(sel).length === 3,
    '[data-tms=panel] li.issue',
    TIMEOUT,
  )
  const filed = []
  for await (const issue of client.issues.find(PROJECT, { issueTypeCodes: ['TRANSLATION'] }))
    filed.push(issue)
  expect(filed.map((i) => [i.string, i.issueText])).toEqual([
    [{ hashcode, localeId: 'fr-FR' }, 'The space before ! is missing in one place'],
    [{ hashcode, localeId: 'de-DE' }, 'Still English in German'],
  ])
  await page.keyboard.press('Escape')
  await page.waitForSelector(panel, { state: 'hidden', ...TIMEOUT })
  await setLocale('fr-FR', 'Bienvenue dans la boutique')
})

/** The texts the highlight outlines, once it shows `count` of them for `locale`. */
async function outlined(locale: string, count: number): Promise<string[]> {
  await page.waitForSelector(
    `#tms-overlay [data-tms=status][data-locale="${locale}"][data-count="${count}"]`,
    TIMEOUT,
  )
  return (
    await page.$$eval('#tms-overlay [data-tms=layer] .outline', (boxes) =>
      boxes.map((b) => b.getAttribute('title')!),
    )
  ).sort()
}

test('highlight mode outlines exactly the untranslated texts, and in a pseudo-locale the ones that do not fit', async () => {
  await setLocale('fr-FR', 'Bienvenue dans la boutique')
  await page.click('#tms-overlay [data-tms=highlight]')
  expect(await outlined('fr-FR', 1)).toEqual(['Not translated yet'])
  // German: a pending translation is not shipped (published only), nor one that drops a placeholder.
  await setLocale('de-DE', 'Welcome to the shop')
  expect(await outlined('de-DE', 4)).toEqual([
    'Hello Ada!',
    'Not translated yet',
    'Save the cart',
    'Welcome to the shop',
  ])
  await setLocale('en-XA', pseudoLocalize('Welcome to the shop', 'en-XA'))
  expect(await outlined('en-XA', 1)).toEqual([pseudoLocalize('Save the cart', 'en-XA')])
  await page.click('#tms-overlay [data-tms=highlight]')
  expect(await page.$$eval('#tms-overlay [data-tms=layer] .outline', (b) => b.length)).toBe(0)
  await setLocale('fr-FR', 'Bienvenue dans la boutique')
})

/** The highlight's texts and count as soon as it has drawn for `locale`, then it goes off again. */
async function highlightOnce(locale: string): Promise<{ count: string | null; texts: string[] }> {
  const status = '#tms-overlay [data-tms=status]'
  await page.click('#tms-overlay [data-tms=highlight]')
  await page.waitForSelector(`${status}[data-locale="${locale}"][data-count]`, TIMEOUT)
  const texts = await page.$$eval('#tms-overlay [data-tms=layer] .outline', (b) =>
    b.map((x) => x.getAttribute('title')!),
  )
  const count = await page.getAttribute(status, 'data-count')
  await page.click('#tms-overlay [data-tms=highlight]')
  return { count, texts: texts.sort() }
}

test('highlight mode leaves out texts nobody sees: visually hidden in a 1 px box, or visibility: hidden', async () => {
  // Two visually-hidden patterns (clip: rect, clip-path) and an invisible text, copies of a message text.
  const add = (text: string) =>
    page.evaluate((t) => {
      const sr =
        'position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;white-space:nowrap;border:0'
      const styles = [`${sr};clip:rect(0,0,0,0)`, `${sr};clip-path:inset(50%)`, 'visibility:hidden']
      for (const style of styles) {
        const span = document.createElement('span')
        span.className = 'hidden-copy'
        span.setAttribute('style', style)
        span.textContent = t
        document.body.append(span)
      }
    }, text)
  const remove = () =>
    page.evaluate(() => {
      for (const e of Array.from(document.querySelectorAll('.hidden-copy'))) e.remove()
    })
  await setLocale('fr-FR', 'Bienvenue dans la boutique')
  await add('Not translated yet')
  expect(await highlightOnce('fr-FR')).toEqual({ count: '1', texts: ['Not translated yet'] })
  await remove()
  // In a pseudo-locale a text in a 1 px box overflows it, yet nobody sees that either.
  await setLocale('en-XA', pseudoLocalize('Welcome to the shop', 'en-XA'))
  await add(pseudoLocalize('Welcome to the shop', 'en-XA'))
  expect(await highlightOnce('en-XA')).toEqual({
    count: '1',
    texts: [pseudoLocalize('Save the cart', 'en-XA')],
  })
  await remove()
  await setLocale('fr-FR', 'Bienvenue dans la boutique')
})

/** The token the overlay's module holds, read as any same-origin script could. */
async function overlayToken(): Promise<string> {
  const code = await (await fetch(`${url}/@id/__x00__tms/overlay.js`)).text()
  return /"token":"([^"]+)"/.exec(code)![1]!
}

async function call(headers: Record<string, string>): Promise<number> {
  const res = await fetch(`${url}/__tms/overlay/message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ id: 'anything' }),
  })
  await res.arrayBuffer()
  return res.status
}

test('the dev endpoints refuse another origin, a missing or wrong token, and a request without Origin', async () => {
  const token = await overlayToken()
  const self = new URL(url).origin
  // The control: the page's own origin with the token gets an answer (400: no such id).
  expect(await call({ origin: self, 'x-tms-overlay-token': token })).toBe(400)
  expect(await call({ origin: 'http://evil.example', 'x-tms-overlay-token': token })).toBe(403)
  expect(await call({ origin: `http://localhost:${new URL(url).port}`, 'x-tms-overlay-token': token })).toBe(
    403,
  )
  expect(await call({ origin: self })).toBe(403)
  expect(await call({ origin: self, 'x-tms-overlay-token': `${token}x` })).toBe(403)
  expect(await call({ 'x-tms-overlay-token': token })).toBe(403)
  expect(await call({ origin: self, 'x-tms-overlay-token': token, 'sec-fetch-site': 'cross-site' })).toBe(403)

  // From a page of another origin in the browser: refused whatever it sends.
  const other = await browser.newPage()
  try {
    await other.goto(`${project.emu.url}/_emulator/state`)
    // vite lets 127.0.0.1 origins through CORS: the request does arrive, with its Origin, and is refused.
    const status = await other.evaluate(
      async ({ endpoint, token }) => {
        const res = await fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-tms-overlay-token': token },
          body: JSON.stringify({ id: 'x' }),
        })
        return res.status
      },
      { endpoint: `${url}/__tms/overlay/message`, token },
    )
    expect(status).toBe(403)
  } finally {
    await other.close()
  }
})

test('no credential and no access token reaches the page', async () => {
  const received = await Promise.all(bodies)
  // The page did talk to the endpoints: the scan covers their answers.
  expect(received.filter((r) => r.url.includes('/__tms/overlay/')).length).toBeGreaterThan(5)
  expect(project.tokens.size).toBeGreaterThan(0)
  const leaks = received.filter(
    (r) => r.body.includes(SECRET) || [...project.tokens].some((t) => r.body.includes(t)),
  )
  expect(leaks.map((r) => r.url)).toEqual([])
})
