import { expect, test } from 'vitest'
import { exampleInDevServer, PANEL, TIMEOUT } from './example-page'

/**
 * The overlay on examples/vite-svelte in vite's dev server: texts of its markup, looked up through
 * the Svelte binding's own lookup (which calls the runtime's), open the panel of their message.
 */

const example = exampleInDevServer('vite-svelte', '#greeting')

test('Alt+click on a text of Svelte markup: the panel of its message, in the locale switched to', async () => {
  const { page } = example
  await page.selectOption('#locale', 'fr-FR')
  await page.waitForFunction(
    () => document.querySelector('#greeting')?.textContent === 'Bonjour Ada !',
    undefined,
    TIMEOUT,
  )
  await page.click('#greeting', { modifiers: ['Alt'] })
  await example.panelOf('Hello {name}!')
  expect(await page.textContent(`${PANEL} [data-tms=hashcode]`)).toBe(
    await example.hashcodeOf((p) => p === 'Hello {0}!'),
  )
  expect(await page.$$eval(`${PANEL} [data-tms=location]`, (a) => a.map((x) => x.textContent))).toEqual([
    example.locationOf('src/App.svelte', "t('Hello {name}!'"),
  ])
})

test('Alt+click on the text of a Svelte <T>: the panel of its message', async () => {
  const { page } = example
  await page.keyboard.press('Escape')
  // The sentence's text before its link: the link's label is the snippet's.
  await page.click('#terms', { modifiers: ['Alt'], position: { x: 3, y: 4 } })
  await example.panelOf('Read the <link>terms of <b>sale</b></link> before you order.')
  expect(await page.textContent(`${PANEL} [data-tms=hashcode]`)).toBe(
    await example.hashcodeOf((p) => p.includes('before you order')),
  )
  expect(await page.$$eval(`${PANEL} [data-tms=location]`, (a) => a.map((x) => x.textContent))).toEqual([
    example.locationOf('src/App.svelte', "t('Read the <link>"),
  ])
})
