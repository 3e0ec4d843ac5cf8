import { afterAll, beforeAll, expect, it } from 'vitest'
import { DiskCache } from '../../src/core/cache'
import { runPipeline } from '../../src/core/pipeline'
import { type RunningEmulator, startEmulator } from '../../src/emulator/index'
import { resolveOptions } from '../../src/options'
import { connectService } from '../../src/service'
import { type RunningProxy, startProxy } from '../helpers/proxy'
import { control, memoryLogger, untilIdle } from '../helpers/sync'
import { FIVE_LOCALES, makeApp, messageModules, PROJECT, SECRET, SEED, storedStrings, USER } from './helpers'

/**
 * A build behind a middlebox that garbles one answer in 50 (every 50th, its body cut in half): the
 * client asks again where that is safe (every GET, and create-strings, which the service treats as
 * an overwrite), so a push of 5,000 strings (51 answers) records every one and a pull of five locales gets every
 * translation. A pull that does fail keeps what arrived and drops nothing from the cache.
 */

const COUNT = 5000
let emu: RunningEmulator
let proxy: RunningProxy
let root: string
let texts: string[]

const options = (extra: object = {}) =>
  resolveOptions(
    {
      root,
      baseUrl: proxy.url,
      projectId: PROJECT,
      userIdentifier: USER,
      userSecret: SECRET,
      locales: FIVE_LOCALES,
      ...extra,
    },
    { command: 'build', env: {} },
  )

beforeAll(async () => {
  emu = await startEmulator({ seed: SEED, autoTranslate: { mode: 'pseudo' } })
  proxy = await startProxy(emu.url, { garbleEvery: 50 })
  const app = messageModules(COUNT)
  texts = app.texts
  root = makeApp(app.files, { locales: FIVE_LOCALES })
})
afterAll(async () => {
  await proxy?.close()
  await emu?.close()
})

async function localeSizes(): Promise<Record<string, number>> {
  const cache = new DiskCache(`${root}/.tms-cache`, PROJECT)
  const sizes: Record<string, number> = {}
  for (const locale of FIVE_LOCALES) {
    const read = await cache.readLocale(locale, 'published')
    sizes[locale] = read.hit ? Object.keys(read.value.translations).length : -1
  }
  return sizes
}

it('one garbled answer in 50: every created string recorded, every translation of 5 locales pulled', {
  timeout: 600_000,
}, async () => {
  const logger = memoryLogger()
  const push = await runPipeline({
    options: options(),
    logger,
    push: true,
    pull: false,
    connect: connectService(),
  })
  expect(logger.lines).toEqual([])
  expect(push.sync.pushed).toBe(COUNT)
  const manifest = await new DiskCache(`${root}/.tms-cache`, PROJECT).readManifest()
  expect(manifest.hit && Object.keys(manifest.value.entries).length).toBe(COUNT)
  expect((await storedStrings(emu)).map((s) => s.stringText).sort()).toEqual([...texts].sort())
  const garbledCreates = proxy.garbled.filter((g) => g.startsWith('POST /strings-api/')).length
  expect(garbledCreates).toBeGreaterThan(0)

  await control(emu, 'POST', `/_emulator/projects/${PROJECT}/strings/authorize`, {})

  await untilIdle(emu)
  const pull = await runPipeline({ options: options(), logger, push: false, connect: connectService() })
  expect(logger.lines).toEqual([])
  const full = { messages: COUNT, translated: COUNT, missing: 0, coverage: 100 }
  expect(pull.report.locales).toEqual(Object.fromEntries(FIVE_LOCALES.map((l) => [l, full])))
  expect(await localeSizes()).toEqual(Object.fromEntries(FIVE_LOCALES.map((l) => [l, COUNT])))
  expect(proxy.garbled.filter((g) => g.includes('/translations')).length).toBeGreaterThan(0)
})

it('a pull that fails part-way (no retries) keeps every cached translation and reports 100%', {
  timeout: 600_000,
}, async () => {
  const logger = memoryLogger()
  const before = proxy.garbled.length
  const pull = await runPipeline({
    options: options(),
    logger,
    push: false,
    connect: connectService({ retry: { retries: 0 } }),
  })
  expect(proxy.garbled.length).toBeGreaterThan(before)
  expect(logger.lines.join('\n')).toMatch(/the service could not be reached \(.*INVALID_RESPONSE|not a JSON/)
  const full = { messages: COUNT, translated: COUNT, missing: 0, coverage: 100 }
  expect(pull.report.locales).toEqual(Object.fromEntries(FIVE_LOCALES.map((l) => [l, full])))
  expect(await localeSizes()).toEqual(Object.fromEntries(FIVE_LOCALES.map((l) => [l, COUNT])))
})

it('with no retries the one garbled create costs its own 100 strings; the next push creates them', {
  timeout: 600_000,
}, async () => {
  const own = await startProxy(emu.url, { garbleEvery: 50 })
  const app = makeApp(messageModules(COUNT).files, { locales: FIVE_LOCALES })
  const logger = memoryLogger()
  try {
    const build = (retries: number) =>
      runPipeline({
        options: resolveOptions(
          {
            root: app,
            baseUrl: own.url,
            projectId: PROJECT,
            userIdentifier: USER,
            userSecret: SECRET,
            locales: FIVE_LOCALES,
          },
          { command: 'build', env: {} },
        ),
        logger,
        push: true,
        pull: false,
        connect: connectService({ retry: { retries } }),
      })
    const first = await build(0)
    // Answer 1 is the token, answers 2-51 the 50 creates: the 50th answer is one of them.
    expect(own.garbled).toEqual(['POST /strings-api/v2/projects/demo-project'])
    expect(first.sync.pushed).toBe(COUNT - 100)
    expect(logger.lines).toHaveLength(1)
    expect(logger.lines[0]).toMatch(
      /^warn: the service could not be reached \(POST \/strings-api\/v2\/projects\/demo-project failed: HTTP 200 answer is not a JSON envelope .*\); the build goes on with 100 of 5000 new strings not created \(they keep their source text\)$/,
    )
    const manifest = await new DiskCache(`${app}/.tms-cache`, PROJECT).readManifest()
    expect(manifest.hit && Object.keys(manifest.value.entries).length).toBe(COUNT - 100)

    const second = await build(5)
    expect(second.sync.pushed).toBe(100)
  } finally {
    await own.close()
  }
})
