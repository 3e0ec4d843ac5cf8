/**
 * Formatting one ICU plural message: the runtime's interpreter on the form the build compiles,
 * against intl-messageformat with a cached IntlMessageFormat instance (its fastest use: the parse is
 * paid once). Both format the same text in the same locale with the same values; rounds alternate
 * the two and the figure is the median round.
 */
import { IntlMessageFormat } from 'intl-messageformat'
import { compileMessage } from '../../src/core/icu/compile'
import type { BenchSection } from '../run'

const runtime = (await import(
  new URL('../../dist/runtime.mjs', import.meta.url).href
)) as typeof import('../../src/runtime/index')

const LOCALE = 'pl-PL'
/** The pl-PL translation of `You have {count, plural, =0 {no files} one {# file} other {# files}} in {folder}`. */
const TRANSLATION =
  'Masz {count, plural, =0 {żadnych plików} one {# plik} few {# pliki} many {# plików} other {# pliku}} w {folder}'
const VALUES = [0, 1, 2, 5, 22, 101, 1.5].map((count) => ({ count, folder: 'Docs' }))
const CALLS = 200_000
const ROUNDS = 9
const TARGET = 2

function opsPerSecond(format: (values: Record<string, unknown>) => string): number {
  const start = performance.now()
  let length = 0
  for (let i = 0; i < CALLS; i++) length += format(VALUES[i % VALUES.length]!).length
  const ms = performance.now() - start
  if (length === 0) throw new Error('nothing formatted')
  return (CALLS / ms) * 1000
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

export async function run(): Promise<BenchSection> {
  await runtime.setLocale(LOCALE)
  const compiled = compileMessage(TRANSLATION, LOCALE)
  const ours = (values: Record<string, unknown>): string => runtime._l('bench', compiled, values) as string
  const cached = new IntlMessageFormat(TRANSLATION, LOCALE)
  const theirs = (values: Record<string, unknown>): string => cached.format(values) as string
  for (const v of VALUES) {
    if (ours(v) !== theirs(v))
      throw new Error(`outputs differ for ${JSON.stringify(v)}: ${ours(v)} / ${theirs(v)}`)
  }
  // Warm-up, then alternating rounds.
  opsPerSecond(ours)
  opsPerSecond(theirs)
  const a: number[] = []
  const b: number[] = []
  for (let r = 0; r < ROUNDS; r++) {
    a.push(opsPerSecond(ours))
    b.push(opsPerSecond(theirs))
  }
  const mine = median(a)
  const peer = median(b)
  const ratio = mine / peer
  const fmt = (n: number): string => `${Math.round(n).toLocaleString('en-US')} ops/s`
  return {
    title: 'ICU formatting speed',
    markdown: [
      `One plural message with an \`=0\` branch, \`#\` and a second argument, in ${LOCALE} (four categories), formatted with counts ${VALUES.map((v) => v.count).join(', ')} in turn: ${CALLS.toLocaleString('en-US')} calls per round, ${ROUNDS} alternating rounds after a warm-up, medians.`,
      '',
      '| formatter | speed | × intl-messageformat | target |',
      '| --- | --- | --- | --- |',
      `| unplugin-tms runtime (\`_l\` on the build's compiled form) | ${fmt(mine)} | ${ratio.toFixed(1)}× | >= ${TARGET}× ${ratio >= TARGET ? '(met)' : '(MISSED)'} |`,
      `| intl-messageformat (cached \`IntlMessageFormat\` instance) | ${fmt(peer)} | 1.0× | |`,
    ].join('\n'),
  }
}
