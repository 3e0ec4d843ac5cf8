import { describe, expect, test } from 'vitest'
import { exampleInDevServer, PANEL, TIMEOUT } from './example-page'

/**
 * The overlay on examples/vite-vue and examples/vite-svelte in vite's dev server: texts of their
 * templates and markup, looked up through each binding's own lookup (which calls the runtime's), open
 * the panel of their message; so does the text of a `<T>` sentence before its link (the link's label
 * is the slot's or the snippet's).
 */

const CASES = [
  {
    framework: 'Vue',
    example: 'vite-vue',
    file: 'src/App.vue',
    rich: 'Read the <link>terms of sale</link> before you buy.',
    richPart: 'terms of sale',
    richCall: 'msg="Read the',
  },
  {
    framework: 'Svelte',
    example: 'vite-svelte',
    file: 'src/App.svelte',
    rich: 'Read the <link>terms of <b>sale</b></link> before you order.',
    richPart: 'before you order',
    richCall: "t('Read the <link>",
  },
] as const

describe.each(CASES)('$framework', ({ example: name, file, rich, richPart, richCall }) => {
  const example = exampleInDevServer(name, '#greeting')

  test('Alt+click on a template text: the panel of its message, in the locale switched to', async () => {
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
      example.locationOf(file, "t('Hello {name}!'"),
    ])
  })

  test('Alt+click on the text of a <T> sentence: the panel of its message', async () => {
    const { page } = example
    await page.keyboard.press('Escape')
    await page.click('#terms', { modifiers: ['Alt'], position: { x: 3, y: 4 } })
    await example.panelOf(rich)
    expect(await page.textContent(`${PANEL} [data-tms=hashcode]`)).toBe(
      await example.hashcodeOf((p) => p.includes(richPart)),
    )
    expect(await page.$$eval(`${PANEL} [data-tms=location]`, (a) => a.map((x) => x.textContent))).toEqual([
      example.locationOf(file, richCall),
    ])
  })
})
