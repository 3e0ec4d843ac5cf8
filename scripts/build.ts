/**
 * `npm run build` (and `npm test`'s pretest): tsdown builds into a new folder under `.tmp/`, and only
 * a finished build replaces `dist/`, file by file (scripts/replace-dir.ts). tsdown alone empties
 * `dist/` first and fills it over tens of seconds, during which an `npm pack` or anything importing
 * the package gets a broken one; a failed build now leaves the previous one whole.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { replaceDir } from './replace-dir'

const REPO = fileURLToPath(new URL('..', import.meta.url))

/**
 * Runs `make(outDir)` with a new folder beside `dist` (the same file system, so renames move the
 * files), then puts its files in place of `dist`'s. On a failure `dist` is left as it was.
 */
export async function buildInto(dist: string, make: (outDir: string) => void | Promise<void>): Promise<void> {
  const parent = join(dirname(dist), '.tmp')
  mkdirSync(parent, { recursive: true })
  const outDir = mkdtempSync(join(parent, 'dist-build-'))
  try {
    await make(outDir)
    await replaceDir(outDir, dist)
  } finally {
    rmSync(outDir, { recursive: true, force: true })
  }
}

/**
 * tsdown's command line, as `npm run build` ran it, into `outDir` (tsdown.config.ts follows `--out-dir`),
 * then the CommonJS entries beside its output.
 */
function tsdown(outDir: string): void {
  const require = createRequire(import.meta.url)
  const manifest = require.resolve('tsdown/package.json')
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: string | Record<string, string> }
  const cli = join(dirname(manifest), typeof bin === 'string' ? bin : bin.tsdown!)
  execFileSync(process.execPath, [cli, '--out-dir', outDir], { cwd: REPO, stdio: 'inherit' })
  execFileSync(process.execPath, [join(REPO, 'scripts', 'commonjs-entries.mjs'), outDir], {
    cwd: REPO,
    stdio: 'inherit',
  })
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    await buildInto(join(REPO, 'dist'), tsdown)
  } catch {
    // tsdown printed its error; dist/ holds the previous build.
    process.exit(1)
  }
}
