/**
 * Formatting ICU plural messages: the runtime's interpreter on the form the build compiles, against
 * intl-messageformat with a cached IntlMessageFormat instance (its fastest use: the parse is paid once).
 * Both format the same text in the same locale with the same values.
 *
 * The machine is shared, so each round times both formatters back to back (in turn first) and the
 * figure is the median of the rounds' paired ratios, with their spread; times are the process's CPU
 * time (process.cpuUsage), which other processes' load disturbs less than the wall clock.
 */
import { IntlMessageFormat } from 'intl-messageformat'
import { compileMessage } from '../../src/core/icu/compile'
import type { BenchSection } from '../section'

const runtime = (await import(
  new URL('../../dist/runtime.mjs', import.meta.url).href
)) as typeof import('../../src/runtime/index')

const LOCALE = 'pl-PL'
const COUNTS = [0, 1, 2, 5, 22, 101, 1.5]
const MESSAGES = [
  {
    name: 'plural with `=0`, `#` and a second argument',
    /** The pl-PL translation of `You have {count, plural, =0 {no files} one {# file} other {# files}} in {folder}`. */
    text: 'Masz {count, plural, =0 {żadnych plików} one {# plik} few {# pliki} many {# plików} other {# pliku}} w {folder}',
    values: COUNTS.map((count) => ({ count, folder: 'Docs' })),
  },
  {
    name: 'plural and a `::unit/megabyte .0` number',
    text: '{count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}} ({size, number, ::unit/megabyte .0})',
    values: COUNTS.map((count) => ({ count, size: count * 1.37 })),
  },
]
const CALLS = 40_000
const ROUNDS = 21
const TARGET = 2

/** Calls per CPU second of `format` over the values in turn. */
function opsPerCpuSecond(format: (values: Record<string, unknown>) => string, values: object[]): number {
  const start = process.cpuUsage()
  let length = 0
  for (let i = 0; i < CALLS; i++)
    length += format(values[i % values.length] as Record<string, unknown>).length
  const used = process.cpuUsage(start)
  if (length === 0) throw new Error('nothing formatted')
  return CALLS / ((used.user + used.system) / 1e6)
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

export async function run(): Promise<BenchSection> {
  await runtime.setLocale(LOCALE)
  const rows: string[] = []
  for (const m of MESSAGES) {
    const compiled = compileMessage(m.text, LOCALE)
    const ours = (values: Record<string, unknown>): string => runtime._l('bench', compiled, values) as string
    const cached = new IntlMessageFormat(m.text, LOCALE)
    const theirs = (values: Record<string, unknown>): string => cached.format(values) as string
    for (const v of m.values) {
      if (ours(v) !== theirs(v))
        throw new Error(`outputs differ for ${JSON.stringify(v)}: ${ours(v)} / ${theirs(v)}`)
    }
    // Warm-up, then paired rounds.
    opsPerCpuSecond(ours, m.values)
    opsPerCpuSecond(theirs, m.values)
    const ratios: number[] = []
    const mine: number[] = []
    const peer: number[] = []
    for (let r = 0; r < ROUNDS; r++) {
      let a: number
      let b: number
      if (r % 2 === 0) {
        a = opsPerCpuSecond(ours, m.values)
        b = opsPerCpuSecond(theirs, m.values)
      } else {
        b = opsPerCpuSecond(theirs, m.values)
        a = opsPerCpuSecond(ours, m.values)
      }
      mine.push(a)
      peer.push(b)
      ratios.push(a / b)
    }
    const ratio = median(ratios)
    const fmt = (n: number): string => `${Math.round(n).toLocaleString('en-US')} ops/s`
    const spread = `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`
    rows.push(
      `| ${m.name} | ${fmt(median(mine))} | ${fmt(median(peer))} | ${ratio.toFixed(2)}× (${spread}) | >= ${TARGET}× ${ratio >= TARGET ? '(met)' : '(MISSED)'} |`,
    )
  }
  return {
    title: 'ICU formatting speed',
    markdown: [
      `Compiled pl-PL messages (four plural categories) formatted by the runtime (\`_l\` on the build's compiled form) and by a cached \`IntlMessageFormat\` instance, with counts ${COUNTS.join(', ')} in turn, on Node ${process.version}: ${CALLS.toLocaleString('en-US')} calls per formatter per round, ${ROUNDS} rounds after a warm-up, the two formatters back to back in each round (in turn first). Speeds are medians per CPU second of this process; the ratio is the median of the rounds' paired ratios, with their lowest and highest.`,
      '',
      '| message | unplugin-tms runtime | intl-messageformat | × intl-messageformat (spread) | target |',
      '| --- | --- | --- | --- | --- |',
      ...rows,
    ].join('\n'),
  }
}
