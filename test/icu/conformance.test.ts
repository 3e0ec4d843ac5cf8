import { execFile } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { IntlMessageFormat } from 'intl-messageformat'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { sourceMessageProblem } from '../../src/core/icu/check'
import { t } from '../../src/runtime/index'
import { AGREE, type ConformanceCase, type ConformanceValues, DECISIONS, REJECTED } from './conformance-cases'
import { buildWithWarnings as build, type IcuProject, setupIcuProject } from './project'

/**
 * Conformance with the peers' suites, within what the package documents: every kind of case that
 * intl-messageformat's tests, its parser's integration cases, messageformat's MF1 fixtures and Lingui
 * core's tests assert (our own cases, test/icu/conformance-cases.ts), each formatted through untransformed
 * `t` and through real rollup builds in runtime and inline mode, compared with intl-messageformat on the
 * same text, locale and values. A deliberate difference is a listed decision, asserted as such.
 */

const RUNNER = fileURLToPath(new URL('./conformance-run.mjs', import.meta.url))
const run = promisify(execFile)
const ALL: ConformanceCase[] = [...AGREE, ...DECISIONS]
const TEXTS = [...new Set(ALL.map((c) => c.text))]
const LOCALES = [...new Set(ALL.map((c) => c.locale))]
const TARGETS = LOCALES.filter((l) => l !== 'en-US')

interface Outcome {
  id: string
  locale: string
  text: string
  got: string
  expected: string
}

/** One entry per case and values: its id says which (`A3.1`: AGREE[3], second values). */
function groupsOf(entry: string, setLocale: boolean, entryOf?: (locale: string) => string) {
  return LOCALES.map((locale) => ({
    entry: entryOf ? entryOf(locale) : entry,
    locale,
    setLocale,
    cases: ALL.flatMap((c, i) =>
      c.locale !== locale
        ? []
        : c.values.map((values: ConformanceValues, j) => ({
            id: `${i < AGREE.length ? `A${i}` : `D${i - AGREE.length}`}.${j}`,
            index: TEXTS.indexOf(c.text),
            text: c.text,
            values,
          })),
    ),
  }))
}

async function runCases(root: string, groups: ReturnType<typeof groupsOf>): Promise<Outcome[]> {
  const file = join(root, `cases-${Math.random().toString(36).slice(2)}.json`)
  writeFileSync(file, JSON.stringify({ groups }))
  const { stdout } = await run(process.execPath, [RUNNER, file], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: { ...process.env, TZ: 'UTC' },
    maxBuffer: 1 << 26,
    timeout: 60_000,
  })
  return JSON.parse(stdout)
}

/** Every outcome agrees with the oracle, or is its case's decision; `path` names the way it ran. */
function expectConformance(outcomes: Outcome[], path: 'untransformed' | 'build'): void {
  const cases = ALL.reduce((n, c) => n + c.values.length, 0)
  expect(outcomes).toHaveLength(cases)
  const wrong: unknown[] = []
  for (const o of outcomes) {
    const [which, j] = o.id.slice(1).split('.').map(Number) as [number, number]
    if (o.id.startsWith('A')) {
      // The oracle formats every agreeing case (none is an error on both sides).
      if (o.got !== o.expected || o.expected.startsWith('THREW'))
        wrong.push({ ...o, kind: AGREE[which]!.kind })
      continue
    }
    const decision = DECISIONS[which]!
    if (decision.untransformedThrows && path === 'untransformed') {
      if (!decision.untransformedThrows.test(o.got)) wrong.push({ ...o, kind: decision.kind })
    } else if (decision.ours) {
      // A decision differs from the oracle for real, and gives what the docs say.
      if (o.got !== decision.ours[j] || o.expected === o.got) wrong.push({ ...o, kind: decision.kind })
    } else if (o.got !== o.expected) wrong.push({ ...o, kind: decision.kind })
  }
  expect(wrong).toEqual([])
}

let project: IcuProject

beforeAll(async () => {
  // Each target locale's translation is the text itself: the build compiles and ships it in that locale.
  project = await setupIcuProject(TEXTS, (text) => text, TARGETS)
}, 60_000)

afterAll(() => project?.close())

describe('every kind of case the peers assert agrees with intl-messageformat, or is a listed decision', () => {
  test('untransformed t', async () => {
    const runtime = fileURLToPath(new URL('../../dist/runtime.mjs', import.meta.url))
    const entry = join(project.root, 'untransformed.mjs')
    const calls = TEXTS.map((text) => `  (v) => t(${JSON.stringify(text)}, v),`).join('\n')
    writeFileSync(
      entry,
      `import { t, setLocale } from ${JSON.stringify(pathToFileURL(runtime).href)}\nexport const messages = [\n${calls}\n]\nexport { setLocale }\n`,
    )
    expectConformance(await runCases(project.root, groupsOf(entry, true)), 'untransformed')
  }, 120_000)

  test('rollup build, runtime mode (setLocale per locale)', async () => {
    const outDir = join(project.root, 'dist-runtime')
    const warnings = await build(project.options(), outDir)
    // Some texts use categories a locale lacks (a warning); none is rejected.
    expect(warnings.filter((w) => /rejected|error/i.test(w))).toEqual([])
    const entry = join(outDir, 'main.js')
    const groups = groupsOf(entry, true)
    expectConformance(await runCases(project.root, groups), 'build')
  }, 120_000)

  test('rollup build, inline mode (one copy per locale)', async () => {
    const outDir = join(project.root, 'dist-inline')
    const warnings = await build(project.options({ mode: 'inline' }), outDir)
    expect(warnings.filter((w) => /rejected|error/i.test(w))).toEqual([])
    const groups = groupsOf('', false, (locale) => join(outDir, locale, 'main.js'))
    expectConformance(await runCases(project.root, groups), 'build')
  }, 120_000)
})

test.each(REJECTED)(
  'a text the peers reject is refused by the build and throws untransformed: $kind',
  ({ text }) => {
    expect(() => new IntlMessageFormat(text, 'en-US')).toThrow()
    expect(sourceMessageProblem(text)).toBeDefined()
    expect(() => t(text as string, {} as never)).toThrow(/\[unplugin-tms\]/)
  },
)
