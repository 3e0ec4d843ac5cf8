import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BenchSection } from '../section'

const repo = new URL('../../', import.meta.url).pathname
const tsc = join(repo, 'node_modules/typescript/bin/tsc')
const CALLS = 2000
const ROUNDS = 3

/** One of a few message shapes, made distinct by `i` so that no two calls share a type instantiation. */
export function message(i: number): string {
  switch (i % 5) {
    case 0:
      return `Hello {name}, message ${i}`
    case 1:
      return `You have {count, plural, =0 {no files} one {# file} other {# files}} in folder ${i}`
    case 2:
      return `{gender, select, female {She} male {He} other {They}} replied to ${i} on {day, date, short}`
    case 3:
      return `Read the <link>terms ${i}</link> before {when, time}`
    default:
      return `Plain text number ${i}, it''s '{'quoted'}'`
  }
}

function values(i: number): string {
  switch (i % 5) {
    case 0:
      return '{ name: "Ada" }'
    case 1:
      return '{ count: 2 }'
    case 2:
      return '{ gender: "male", day: new Date() }'
    case 3:
      return '{ link: (chunks: unknown[]) => chunks.join(""), when: 0 }'
    default:
      return ''
  }
}

/** The same 2,000 calls, against `t` as the runtime types it, or typed loosely (text, any values). */
export function fixture(dir: string, typed: boolean): void {
  const head = typed
    ? `import { t } from '${repo}src/runtime/index'\n`
    : `import { t as typed } from '${repo}src/runtime/index'\n` +
      'const t = typed as unknown as (text: string, values?: Record<string, unknown>, options?: object) => string\n'
  const lines = [head, 'export const out: string[] = []']
  for (let i = 0; i < CALLS; i++) {
    const v = values(i)
    lines.push(`out.push(String(t(${JSON.stringify(message(i))}${v ? `, ${v}` : ''})))`)
  }
  writeFileSync(join(dir, 'calls.ts'), `${lines.join('\n')}\n`)
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2023', 'DOM'],
        module: 'preserve',
        moduleResolution: 'bundler',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      files: ['calls.ts'],
    }),
  )
}

function check(dir: string): { seconds: number; instantiations: number } {
  const out = execFileSync(process.execPath, [tsc, '-p', dir, '--extendedDiagnostics'], { encoding: 'utf8' })
  const seconds = Number(/^Check time:\s+([\d.]+)s/m.exec(out)![1])
  const instantiations = Number(/^Instantiations:\s+(\d+)/m.exec(out)![1])
  return { seconds, instantiations }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

/** tsc's check time of 2,000 `t` calls with the types read from the text, beside `t` typed loosely. */
export const perNode = false

export async function run(): Promise<BenchSection> {
  const root = mkdtempSync(join(tmpdir(), 'tms-type-check-'))
  try {
    const rows: string[] = []
    const result: Record<string, { seconds: number; instantiations: number }> = {}
    for (const typed of [false, true]) {
      const dir = join(root, typed ? 'typed' : 'loose')
      execFileSync('mkdir', ['-p', dir])
      fixture(dir, typed)
      const runs = Array.from({ length: ROUNDS }, () => check(dir))
      result[typed ? 'typed' : 'loose'] = {
        seconds: median(runs.map((r) => r.seconds)),
        instantiations: runs[0]!.instantiations,
      }
    }
    const { loose, typed } = result as Record<'loose' | 'typed', { seconds: number; instantiations: number }>
    const ratio = typed.seconds / loose.seconds
    rows.push(
      `| \`t\` typed loosely (text, any values) | ${loose.seconds.toFixed(2)} s | ${loose.instantiations} |  |  |`,
    )
    rows.push(
      `| \`t\` typed from the text | ${typed.seconds.toFixed(2)} s | ${typed.instantiations} | ${ratio.toFixed(1)}× | <= 5× (${ratio <= 5 ? 'met' : 'NOT met'}) |`,
    )
    return {
      title: 'Type-check time of typed messages',
      markdown: `tsc's check time (\`--extendedDiagnostics\`, median of ${ROUNDS} runs) of one file with ${CALLS.toLocaleString('en')} \`t\` calls, every text distinct (plain, \`{name}\`, plural, select with a date, tags with a time, apostrophe quoting), against the same file with \`t\` typed loosely. Instantiations are TypeScript's own count and do not depend on the machine.

| \`t\` | check time | instantiations | × loose | target |
| --- | --- | --- | --- | --- |
${rows.join('\n')}
`,
    }
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}
