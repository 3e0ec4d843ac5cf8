import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// The README's main job and the examples, run as a newcomer runs them (npm test builds dist/ first).
const repo = fileURLToPath(new URL('..', import.meta.url))

function node(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: repo, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    )
  })
}

describe('npm run demo and the examples', () => {
  it('the demo pushes into a job, gets every locale translated and says how to preview', async () => {
    const run = await node(['scripts/demo.mjs'])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    for (const locale of ['de-DE', 'fr-FR', 'ja-JP'])
      expect(run.stdout).toContain(`  ${locale}   15/15 translated  100%`)
    expect(run.stdout).toContain('15 new strings pushed')
    expect(run.stdout).toContain('1  POST /jobs-api/v3/projects/:projectId/jobs/:translationJobUid/authorize')
    expect(run.stdout).toContain('npm run demo -- --serve')
  }, 150_000)

  it('the demo build stays quiet when the service is slow (rolldown times the waits on it)', async () => {
    // 700 ms per request makes the build last over 3 s with over 1 s in the plugin's hooks: what
    // rolldown reports as PLUGIN_TIMINGS, and what a loaded machine or a distant service gives.
    const script = `
      import { build } from './examples/vite-react/build.mjs'
      import { clearCache, withDemoEmulator } from './scripts/demo-emulator.mjs'
      await withDemoEmulator(async ({ control }) => {
        await clearCache('./examples/vite-react/')
        await control('POST', '/_emulator/faults', { latencyMs: 700 })
        await build()
      })`
    const run = await node(['--input-type=module', '-e', script])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^emulator listening on http:\/\/127\.0\.0\.1:\d+\n$/)
  }, 150_000)

  for (const example of ['webpack', 'rollup', 'esbuild']) {
    it(`examples/${example} builds against the emulator, fully translated`, async () => {
      const run = await node(['scripts/example.mjs', example])
      expect(run.code).toBe(0)
      for (const locale of ['de-DE', 'fr-FR', 'ja-JP'])
        expect(run.stdout).toContain(`  ${locale}    5/5 translated  100%`)
    }, 150_000)
  }
})
