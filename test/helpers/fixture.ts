import { existsSync } from 'node:fs'
import { relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect } from 'vitest'

const REPO = fileURLToPath(new URL('../../', import.meta.url))

/**
 * The one fixture habit: an output compared whole with its expected file, through vitest's
 * `toMatchFileSnapshot`. A missing or different file fails; only `vitest -u` (`npx vitest run <test>
 * -u`) writes them, and its diff is reviewed like code. vitest.config.ts sets `update: 'none'` so that
 * a plain run never writes one, as vitest would otherwise do for a missing file outside CI.
 */
export async function expectFixture(actual: string, expectedFile: string): Promise<void> {
  const name = relative(REPO, expectedFile)
  const updating = expect.getState().snapshotState?.snapshotUpdateState === 'all'
  if (!existsSync(expectedFile) && !updating) {
    throw new Error(
      `${name} is missing: \`npx vitest run -u\` on this test writes it; review it before committing`,
    )
  }
  await expect(
    actual,
    `${name} (\`npx vitest run -u\` on this test rewrites it; review the diff)`,
  ).toMatchFileSnapshot(expectedFile)
}
