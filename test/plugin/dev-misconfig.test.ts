import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createServer } from 'vite'
import { expect, test } from 'vitest'
import type { Options } from '../../src/options'
import { catalogModuleId } from '../../src/plugin/virtual'
import tmsVite from '../../src/vite'
import { onFreePort } from '../helpers/listen'
import { suiteProject } from './helpers'
import { recordingLogger } from './vite-logger'

/**
 * Forgiving in dev, strict in build: the misconfigurations that fail a production build leave a vite
 * dev server running from the cache, with a warning that names the fix.
 */

const project = suiteProject(true)

/** Starts a dev server with the options, and gives its warnings and the French catalog it serves. */
async function devServer(options: Options): Promise<{ warnings: string[]; french: string }> {
  const lines: string[] = []
  const server = await createServer({
    root: project.current.root,
    configFile: false,
    customLogger: recordingLogger(lines),
    plugins: [tmsVite(options)],
    server: { host: '127.0.0.1', port: 0 },
  })
  try {
    await onFreePort(() => server.listen())
    const page = await fetch(server.resolvedUrls!.local[0]!)
    expect(page.status).toBe(200)
    const french = await server.transformRequest(catalogModuleId('fr-FR'))
    const warnings = lines.filter((l) => l.startsWith('warn ')).map((l) => l.slice('warn '.length))
    return { warnings, french: french?.code ?? '' }
  } finally {
    await server.close()
  }
}

test('a wrong secret with push on: the dev server serves the cache and warns', async () => {
  // A message the cache lacks, so the dev server has something to push.
  writeFileSync(
    join(project.current.root, 'src/extra.js'),
    "import { t } from 'unplugin-tms/runtime'\nt('Only in dev')\n",
  )
  const { warnings, french } = await devServer(project.current.options({ push: true, userSecret: 'wrong' }))
  expect(warnings).toEqual([
    'warning: the service refused the credentials (POST /auth-api/v2/authenticate failed: 401 AUTHENTICATION_ERROR: Invalid user identifier or user secret): check TMS_USER_IDENTIFIER (or the userIdentifier option) and TMS_USER_SECRET (or the userSecret option); the build goes on with 1 of 1 new strings not created (they keep their source text)',
  ])
  expect(french).toContain('Bienvenue dans la boutique')
})

test('credentials without a base URL: the dev server serves the cache and warns', async () => {
  const options = project.current.options()
  delete options.baseUrl
  const { warnings, french } = await devServer(options)
  expect(warnings).toEqual([
    'warning: TMS_BASE_URL (or the baseUrl option) is not set: the credentials are, but no request can be sent without the API root',
  ])
  expect(french).toContain('Bienvenue dans la boutique')
})
