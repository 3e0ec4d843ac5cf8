/**
 * Deterministic generator of the extraction benchmark corpus: 5,000 TSX components (about 13 MB), about
 * ten translatable calls each, with placeholders and variants. The same messages are written once per
 * tool, in that tool's syntax, so every extractor reads an equivalent tree:
 *
 * - `tms`: `t('Hello {name}', { name }, { variant })` and `` t`Hello ${name}` `` from unplugin-tms/runtime
 * - `formatjs`: `intl.formatMessage({ defaultMessage, description }, values)`
 * - `i18next`: `t('Hello {{name}}', { name, context })`
 * - `lingui`: `` t`Hello ${name}` `` and `t({ message, context })` from @lingui/core/macro
 *
 * Everything derives from a seeded PRNG, so two runs (and two machines) get byte-identical files.
 */
import { existsSync } from 'node:fs'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

export type CorpusFlavor = 'tms' | 'formatjs' | 'i18next' | 'lingui'
export const CORPUS_FLAVORS: readonly CorpusFlavor[] = ['tms', 'formatjs', 'i18next', 'lingui']

export interface CorpusInfo {
  dir: string
  files: number
  bytes: number
  calls: number
  /** Distinct (text, variant) pairs: what a correct extractor must report. */
  messages: number
}

const GENERATOR_VERSION = 5
const FILES = 5000
const DIRS = 50

/** mulberry32: small, fast and good enough to pick words. */
export function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let x = a
    x = Math.imul(x ^ (x >>> 15), x | 1)
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61)
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
}

export const WORDS =
  'account address amount archive balance basket billing cancel cart change checkout choose city close comment confirm connect contact continue copy country create customer date default delete delivery description details discount document download draft edit email empty enable error export favorite file filter folder history home image import invoice item language last limit link list load login logout message method name network next notification number open order owner page password payment pending phone picture plan price print privacy profile project quantity receipt refund remove report request reset review save schedule search security select send settings share shipping sign status store subscription summary support tag task team total transfer update upload user verify view wallet warning welcome'.split(
    ' ',
  )
const PLACEHOLDERS = ['name', 'count', 'total', 'date', 'user', 'email', 'amount', 'city']
const VARIANTS = ['button', 'title', 'menu', 'tooltip', 'heading', 'label']

interface CorpusMessage {
  words: string[]
  placeholders: string[]
  variant: string | null
}

function makeMessagePool(rand: () => number, size: number): CorpusMessage[] {
  const pool: CorpusMessage[] = []
  for (let i = 0; i < size; i++) {
    const count = 2 + Math.floor(rand() * 6)
    const words: string[] = []
    for (let w = 0; w < count; w++) words.push(WORDS[Math.floor(rand() * WORDS.length)]!)
    words[0] = words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1)
    const placeholders: string[] = []
    const roll = rand()
    if (roll < 0.3) placeholders.push(PLACEHOLDERS[Math.floor(rand() * PLACEHOLDERS.length)]!)
    else if (roll < 0.4) {
      const a = Math.floor(rand() * PLACEHOLDERS.length)
      placeholders.push(PLACEHOLDERS[a]!, PLACEHOLDERS[(a + 1) % PLACEHOLDERS.length]!)
    }
    const variant = rand() < 0.15 ? VARIANTS[Math.floor(rand() * VARIANTS.length)]! : null
    pool.push({ words, placeholders, variant })
  }
  return pool
}

/** The message's text in the `{name}` form with the placeholders spread between the words. */
function braceText(m: CorpusMessage, open: string, close: string): string {
  const parts = [...m.words]
  m.placeholders.forEach((p, i) => {
    const at = Math.min(parts.length, 1 + i * 2)
    parts.splice(at, 0, `${open}${p}${close}`)
  })
  return parts.join(' ')
}

function templateText(m: CorpusMessage): string {
  return braceText(m, '${', '}')
}

function values(m: CorpusMessage): string {
  return `{ ${m.placeholders.join(', ')} }`
}

function call(flavor: CorpusFlavor, m: CorpusMessage, tagged: boolean): string {
  switch (flavor) {
    case 'tms': {
      if (tagged && m.variant === null && m.placeholders.length > 0) return `t\`${templateText(m)}\``
      const text = `'${braceText(m, '{', '}')}'`
      const vals = m.placeholders.length > 0 ? values(m) : 'undefined'
      if (m.variant !== null) return `t(${text}, ${vals}, { variant: '${m.variant}' })`
      return m.placeholders.length > 0 ? `t(${text}, ${vals})` : `t(${text})`
    }
    case 'formatjs': {
      const desc = m.variant !== null ? `, description: '${m.variant}'` : ''
      const vals = m.placeholders.length > 0 ? `, ${values(m)}` : ''
      return `intl.formatMessage({ defaultMessage: '${braceText(m, '{', '}')}'${desc} }${vals})`
    }
    case 'i18next': {
      const entries = [...m.placeholders]
      if (m.variant !== null) entries.push(`context: '${m.variant}'`)
      const vals = entries.length > 0 ? `, { ${entries.join(', ')} }` : ''
      return `t('${braceText(m, '{{', '}}')}'${vals})`
    }
    case 'lingui': {
      if (m.variant !== null) return `t({ message: \`${templateText(m)}\`, context: '${m.variant}' })`
      return `t\`${templateText(m)}\``
    }
  }
}

function header(flavor: CorpusFlavor): string {
  switch (flavor) {
    case 'tms':
      return `import { t } from 'unplugin-tms/runtime'\n`
    case 'formatjs':
      return `import { useIntl } from 'react-intl'\n`
    case 'i18next':
      return `import { useTranslation } from 'react-i18next'\n`
    case 'lingui':
      return `import { t } from '@lingui/core/macro'\n`
  }
}

function hookLine(flavor: CorpusFlavor): string {
  switch (flavor) {
    case 'formatjs':
      return '  const intl = useIntl()\n'
    case 'i18next':
      return '  const { t } = useTranslation()\n'
    default:
      return ''
  }
}

/** Ordinary component code around the calls, so parsing cost resembles an application's. */
function filler(rand: () => number, n: number, k: number): string {
  const w = () => WORDS[Math.floor(rand() * WORDS.length)]!
  const a = w()
  const b = w()
  return `
export function compute${n}x${k}(items: ReadonlyArray<{ id: number; ${a}: number; ${b}?: string }>, limit = ${Math.floor(rand() * 100)}): number[] {
  const result: number[] = []
  for (const item of items) {
    if (item.${a} > limit && item.${b} !== undefined) {
      result.push(item.id * ${Math.floor(rand() * 9) + 1} + item.${a})
    } else if (item.${b}?.startsWith('${w()}')) {
      result.push(Math.round(item.${a} / ${Math.floor(rand() * 7) + 2}))
    }
  }
  return result.sort((x, y) => x - y).slice(0, ${Math.floor(rand() * 20) + 5})
}
`
}

function component(flavor: CorpusFlavor, n: number, rand: () => number, picks: CorpusMessage[]): string {
  let out = `// Generated component ${n}. Do not edit.\nimport { useMemo, useState } from 'react'\n`
  out += header(flavor)
  out += `import type { Item } from '../types'\n\n`
  out += `interface Props${n} {\n  id: number\n  title: string\n  items: Item[]\n  onSelect?: (id: number) => void\n}\n`
  out += filler(rand, n, 0)
  out += `\nexport function Component${n}({ id, title, items, onSelect }: Props${n}) {\n`
  out += hookLine(flavor)
  out += '  const [open, setOpen] = useState(false)\n'
  out += `  const grandTotal = useMemo(() => items.reduce((sum, item) => sum + item.price * item.quantity, 0), [items])\n`
  out += `  const ${PLACEHOLDERS.join(' = title, ')} = title\n`
  const calls = picks.map((m, i) => call(flavor, m, i % 3 === 1))
  out += `  const heading = ${calls[0]}\n`
  out += '  return (\n'
  out += `    <section className="panel panel-${n % 7}" data-id={id} aria-expanded={open}>\n`
  out += `      <h2 onClick={() => setOpen(!open)}>{heading}</h2>\n`
  for (let i = 1; i < calls.length; i++) {
    if (i % 4 === 0) {
      out += `      <button type="button" title={${calls[i]}} onClick={() => onSelect?.(id + ${i})}>\n        {grandTotal > ${i * 10} ? ${calls[i]} : null}\n      </button>\n`
    } else {
      out += `      <p className="line-${i}">{${calls[i]}}</p>\n`
    }
  }
  out += `      <ul>\n        {items.map((item) => (\n          <li key={item.id} onClick={() => onSelect?.(item.id)}>\n            {item.name} {item.price.toFixed(2)}\n          </li>\n        ))}\n      </ul>\n`
  out += '    </section>\n  )\n}\n'
  out += filler(rand, n, 1)
  return out
}

function pathOf(n: number): string {
  return join(`feature-${String(n % DIRS).padStart(2, '0')}`, `Component${n}.tsx`)
}

/**
 * Writes bench/.corpus/<flavor>/ unless it is already there for this generator version. Returns what
 * it holds. `files` can be lowered for quick checks.
 */
export async function ensureCorpus(root: string, flavor: CorpusFlavor, files = FILES): Promise<CorpusInfo> {
  const dir = join(root, `${flavor}-${files}`)
  const stampFile = join(dir, '.stamp.json')
  if (existsSync(stampFile)) {
    const stamp = JSON.parse(await readFile(stampFile, 'utf8')) as CorpusInfo & { version: number }
    if (stamp.version === GENERATOR_VERSION) return { ...stamp, dir }
  }
  await rm(dir, { recursive: true, force: true })
  const rand = prng(20261121)
  const pool = makeMessagePool(rand, 12000)
  let bytes = 0
  let calls = 0
  const seen = new Set<string>()
  for (let d = 0; d < Math.min(DIRS, files); d++) {
    await mkdir(join(dir, `feature-${String(d).padStart(2, '0')}`), { recursive: true })
  }
  const pending: Promise<void>[] = []
  for (let n = 0; n < files; n++) {
    const picks: CorpusMessage[] = []
    for (let k = 0; k < 9; k++) {
      // A skewed pick: common messages recur across files, as "Save" and "Cancel" do in real apps.
      const r = rand()
      picks.push(pool[Math.floor(r * r * pool.length)]!)
    }
    const source = component(flavor, n, prng(n + 1), picks)
    // Calls written in the source: each pick once, the button ones twice.
    calls += picks.length + picks.filter((_, i) => i > 0 && i % 4 === 0).length
    // Identity is the parsed text: `Hello {name}` and `Hello {city}` are one message.
    for (const m of picks)
      seen.add(`${braceText(m, '{', '}').replace(/\{\w+\}/g, '{}')}\u0000${m.variant ?? ''}`)
    bytes += Buffer.byteLength(source)
    pending.push(writeFile(join(dir, pathOf(n)), source))
    if (pending.length >= 64) await Promise.all(pending.splice(0))
  }
  await Promise.all(pending)
  const info = { dir, files, bytes, calls, messages: seen.size }
  await writeFile(stampFile, JSON.stringify({ ...info, version: GENERATOR_VERSION }))
  return info
}
