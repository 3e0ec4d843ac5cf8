import { readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'vite'
import { expect, test } from 'vitest'
import tmsVite from '../../src/vite'
import { FRENCH_TEXT, PSEUDO_TEXT, SOURCE_TEXT, suiteProject } from '../plugin/helpers'

/**
 * Inline mode and `vite build --ssr`: one server bundle per locale, like the client copies, each with
 * its text inlined; a server loads the copy of the request's locale.
 */

const project = suiteProject(true)

type ServerEntry = { renderIn(locale: string): Promise<string[]> }

test('a build --ssr in inline mode gives one server bundle per locale, each in its locale', async () => {
  const root = project.current.root
  writeFileSync(
    join(root, 'src/server.js'),
    [
      "import { getLocale, runWithLocale } from 'unplugin-tms/runtime'",
      "import { render } from './main.js'",
      'export const renderIn = (locale) => runWithLocale(locale, () => [getLocale(), ...render()])',
      '',
    ].join('\n'),
  )
  const outDir = join(root, 'dist-ssr')
  await build({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins: [tmsVite(project.current.options({ cache: 'offline', mode: 'inline' }))],
    build: { ssr: 'src/server.js', outDir },
  })
  // No tms-report.json: vite drops the assets of an SSR build (build.ssrEmitAssets); the client build has it.
  expect(readdirSync(outDir).sort()).toEqual(['en-US', 'en-XA', 'fr-FR'])
  const copy = async (locale: string) =>
    (await import(pathToFileURL(join(outDir, locale, 'server.js')).href)) as ServerEntry
  expect(await (await copy('en-US')).renderIn('en-US')).toEqual(['en-US', ...SOURCE_TEXT])
  expect(await (await copy('fr-FR')).renderIn('fr-FR')).toEqual(['fr-FR', ...FRENCH_TEXT])
  expect(await (await copy('en-XA')).renderIn('en-XA')).toEqual(['en-XA', ...PSEUDO_TEXT])
  // A copy holds one locale: another one is the other copy's job, and the error says so.
  await expect((await copy('fr-FR')).renderIn('en-XA')).rejects.toThrow(
    "[unplugin-tms] this page is the fr-FR copy of an inline build (mode: 'inline'): switching to en-XA means loading the en-XA copy",
  )
}, 120_000)
