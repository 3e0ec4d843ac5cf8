/**
 * `npm run build` (also `npm test`'s pretest) replaces dist/ only with a finished build, file by file:
 * an `npm pack` or an import of the package made while it runs gets a whole build, never an empty or
 * half-written folder (tsdown alone empties dist/ first and fills it over tens of seconds).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { expect, it } from 'vitest'
import { buildInto } from '../scripts/build'
import { replaceDir } from '../scripts/replace-dir'
import config from '../tsdown.config'

const repo = new URL('..', import.meta.url).pathname

/** A build as tsdown makes one: fixed-name entries that import content-hashed chunks. */
function writeBuild(dir: string, version: string): Record<string, string> {
  const files: Record<string, string> = {
    'index.mjs': `export { v } from './chunk-${version}.mjs'\n`,
    'runtime.mjs': `export const runtime = '${version}'\n`,
    [`chunk-${version}.mjs`]: `export const v = '${version}'\n`,
    [`types/index-${version}.d.mts`]: `export type V = '${version}'\n`,
  }
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true })
    writeFileSync(join(dir, name), text)
  }
  return files
}

/** Files of `dir` whose relative imports are missing, or whose text is neither build's. */
function broken(dir: string, builds: Record<string, string>[]): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!name.includes('.')) continue
    const text = readFileSync(join(dir, name), 'utf8')
    if (!builds.some((b) => b[name] === text)) out.push(`${name}: not whole`)
    for (const [, spec] of text.matchAll(/from '(\.[^']+)'/g))
      if (!existsSync(join(dir, spec!))) out.push(`${name} -> ${spec}`)
  }
  return out
}

it('npm run build is the build that swaps, and tsdown.config.ts writes only into the folder it is given', () => {
  const scripts = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).scripts
  expect(scripts.build).toBe('tsx scripts/build.ts')
  expect(scripts.pretest).toBe('npm run build')
  // No config names dist/: the command line's --out-dir (the new folder) is where every file goes.
  const copies: unknown[] = []
  for (const c of config as { outDir?: string; copy?: unknown }[]) {
    expect(c.outDir).toBeUndefined()
    if (typeof c.copy === 'function') copies.push(...c.copy({ outDir: '/new/folder' }))
    else expect(c.copy).toBeUndefined()
  }
  expect(copies).toEqual([
    { from: 'src/nuxt/request-plugin.mjs', to: '/new/folder/nuxt-request.mjs' },
    { from: 'src/nuxt/page-plugin.mjs', to: '/new/folder/nuxt-page.mjs' },
    { from: 'src/plugin/runtime-proxy.mjs', to: '/new/folder/runtime-proxy.mjs' },
    { from: 'src/svelte/T.svelte', to: '/new/folder/T.svelte' },
  ])
})

it('dist stays whole at every step of the swap: new chunks first, then the entries, old chunks last', async () => {
  const root = mkdtempSync(join(tmpdir(), 'tms-build-'))
  const dist = join(root, 'dist')
  const old = writeBuild(dist, 'old')
  let next: Record<string, string> = {}
  const steps: string[] = []
  const problems: string[] = []
  let made = ''
  await buildInto(dist, (outDir) => {
    made = outDir
    // While the build writes, dist is the previous build, untouched.
    next = writeBuild(outDir, 'new')
    expect(broken(dist, [old])).toEqual([])
  })
  // buildInto's swap is replaceDir's; the steps are checked on a second swap below with the hook.
  expect(made.startsWith(join(root, '.tmp', 'dist-build-'))).toBe(true)
  expect(existsSync(made)).toBe(false)
  expect(broken(dist, [next])).toEqual([])
  expect(readdirSync(dist, { recursive: true }).sort()).toEqual(Object.keys(next).concat('types').sort())

  const staging = join(root, 'staging')
  const third = writeBuild(staging, 'third')
  await replaceDir(staging, dist, (step) => {
    steps.push(step)
    problems.push(...broken(dist, [next, third]).map((p) => `after ${step}: ${p}`))
  })
  expect(problems).toEqual([])
  expect(steps).toEqual([
    'added chunk-third.mjs',
    'added types/index-third.d.mts',
    'replaced index.mjs',
    'replaced runtime.mjs',
    'removed chunk-new.mjs',
    'removed types/index-new.d.mts',
  ])
  expect(existsSync(staging)).toBe(false)
  const entry = await import(pathToFileURL(join(dist, 'index.mjs')).href)
  expect(entry.v).toBe('third')
})

it('a failed build leaves dist as it was and no folder behind', async () => {
  const root = mkdtempSync(join(tmpdir(), 'tms-build-'))
  const dist = join(root, 'dist')
  const old = writeBuild(dist, 'old')
  await expect(
    buildInto(dist, (outDir) => {
      writeBuild(outDir, 'half')
      throw new Error('a type error')
    }),
  ).rejects.toThrow('a type error')
  expect(broken(dist, [old])).toEqual([])
  expect(readdirSync(dist, { recursive: true }).sort()).toEqual(Object.keys(old).concat('types').sort())
  expect(readdirSync(join(root, '.tmp'))).toEqual([])
})

it('the first build, with no dist yet, is moved in whole', async () => {
  const root = mkdtempSync(join(tmpdir(), 'tms-build-'))
  const dist = join(root, 'dist')
  let next: Record<string, string> = {}
  await buildInto(dist, (outDir) => {
    next = writeBuild(outDir, 'first')
  })
  expect(broken(dist, [next])).toEqual([])
  expect(readdirSync(dist, { recursive: true }).sort()).toEqual(Object.keys(next).concat('types').sort())
})
