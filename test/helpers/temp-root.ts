/**
 * vitest's global setup: every test's temporary directory (`os.tmpdir()`, which reads TMPDIR) goes
 * under one directory made for this run and removed when it ends, so that the suite leaves nothing
 * in /tmp however a test made its directories (dozens of tests make apps, caches and catalogs there).
 * The workers inherit TMPDIR: they start after this runs.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'unplugin-tms-test-'))
  const before = process.env.TMPDIR
  process.env.TMPDIR = root
  return () => {
    if (before === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = before
    rmSync(root, { recursive: true, force: true, maxRetries: 3 })
  }
}
