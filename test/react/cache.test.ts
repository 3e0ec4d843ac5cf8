import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { clearExtractionMemory, extractMessages } from '../../src/core/extract/index'

let dir: string | undefined

afterEach(() => {
  clearExtractionMemory()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

it('a <T> site read back from the disk cache keeps its opening element and pieces', async () => {
  dir = mkdtempSync(join(tmpdir(), 'tms-react-cache-'))
  mkdirSync(join(dir, 'src'))
  writeFileSync(
    join(dir, 'src/a.tsx'),
    "import { T } from 'unplugin-tms/react'\nexport const A = ({ name }) => <T>Hi <b>{name}</b><br/></T>\n",
  )
  const cacheDir = join(dir, '.tms-cache', 'extract')
  const run = () => extractMessages({ cwd: dir!, workers: 0, cacheDir })
  const cold = await run()
  clearExtractionMemory()
  const warm = await run()
  expect(warm.stats).toEqual({ files: 1, parsed: 0, cached: 1, skipped: 0, workers: 0 })
  const calls = (r: typeof cold) => [...r.files.values()].flatMap((fx) => fx.calls)
  expect(calls(warm)).toEqual(calls(cold))
  expect(calls(warm).map((c) => [c.kind, c.jsx?.pieces.map((p) => `${p.kind} ${p.name}`)])).toEqual([
    ['jsx', ['tag b', 'value name', 'tag br']],
  ])
})
