import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { tms } from '../helpers/cli'
import { copyExample } from '../helpers/example'

/**
 * Every example is a folder a user runs the CLI in (`npx tms status`, `npx tms issues`, as
 * docs/cli.md and docs/dev-overlay.md show): the CLI never reads a bundler's config, so each example
 * keeps the options it shares with the build in its tms.config.*. Run on a copy (where it resolves its
 * packages as the example does): the CLI writes its extraction cache next to the config.
 */

const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url))
const names = readdirSync(EXAMPLES, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
const copies: string[] = []

function copy(name: string): string {
  const root = copyExample(join(EXAMPLES, name), `cli-${name}-`)
  copies.push(root)
  return root
}

afterAll(() => {
  for (const root of copies) rmSync(root, { recursive: true, force: true })
})

describe.each(names)('examples/%s', (name) => {
  it('tms status and tms issues read its tms.config.*', async () => {
    expect(names.length).toBe(11)
    const root = copy(name)
    const status = await tms(root, ['status', '--json'])
    expect([status.code, status.stderr]).toEqual([
      0,
      `warning: no translations for fr-FR, de-DE, ja-JP: cache is 'offline' (TMS_OFFLINE=1 or the cache option) and the cache (${join(root, '.tms-cache')}) has none, so the build uses the source text\n`,
    ])
    expect(Object.keys(JSON.parse(status.stdout).locales)).toEqual(['de-DE', 'fr-FR', 'ja-JP'])
    // Past the options: what stops it now is the missing credentials, as it would for any app.
    const issues = await tms(root, ['issues'])
    expect([issues.code, issues.stderr]).toEqual([
      1,
      '[unplugin-tms] tms issues asks the service, and no credentials: set TMS_USER_IDENTIFIER and TMS_USER_SECRET\n',
    ])
  })
})
