import { join, relative, resolve } from 'node:path'
import type { CAC } from 'cac'
import { loadOptions } from '../config'
import { type Diagnostic, type ExtractOptions, extractMessages, type Message } from '../core/extract/index'
import { type Options, placeholderSpecOf } from '../options'

/** `tms extract`: the extractor the build uses, printing what it finds. */

interface ExtractFlags {
  json?: boolean
  root?: string
  include?: string | string[]
  exclude?: string | string[]
  keywords?: string
  cache?: boolean
  workers?: string | number
}

function list(value: string | string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined
  return (Array.isArray(value) ? value : [value]).map(String)
}

/**
 * `--keywords t,_x:1,2c,_n:1,2`: commas separate specs and also argument positions inside one, so a
 * piece that is only a position (`2c`, `2`) belongs to the spec before it.
 */
export function splitKeywordList(value: string): string[] {
  const specs: string[] = []
  for (const piece of value.split(/[\s,]+/)) {
    if (piece === '') continue
    if (/^\d+c?$/.test(piece) && specs.length > 0 && specs[specs.length - 1]!.includes(':')) {
      specs[specs.length - 1] += `,${piece}`
    } else specs.push(piece)
  }
  return specs
}

/** The extraction options of `tms.config.*` (when there is one), overridden by the flags. */
export async function extractOptionsFromFlags(flags: ExtractFlags, cwd: string): Promise<ExtractOptions> {
  // Same lookup as the other commands: the nearest tms.config.*, its directory as the root.
  const inline: Options = flags.root ? { root: resolve(cwd, flags.root) } : {}
  const config = await loadOptions(inline, inline.root ?? cwd)
  const root = resolve(cwd, config.root ?? '.')
  const options: ExtractOptions = { cwd: root }
  const include = list(flags.include) ?? config.include
  const exclude = list(flags.exclude) ?? config.exclude
  const keywords = flags.keywords !== undefined ? splitKeywordList(String(flags.keywords)) : config.keywords
  const placeholder = placeholderSpecOf(config.placeholderFormat)
  if (include) options.include = include
  if (exclude) options.exclude = exclude
  if (keywords) options.keywords = keywords
  options.placeholder = placeholder
  if (config.namespace !== undefined) options.namespace = config.namespace
  if (flags.workers !== undefined) {
    options.workers = flags.workers === 'auto' ? 'auto' : Number(flags.workers)
  }
  // Without the cache the run is one-off: only the messages are built (no call sites, no hashes).
  if (flags.cache !== false)
    options.cacheDir = join(resolve(root, config.cacheDir ?? '.tms-cache'), 'extract')
  else options.messagesOnly = true
  return options
}

/** `relative` once per file: a large project has tens of thousands of locations in a few thousand files. */
function pathsRelativeTo(cwd: string): (file: string) => string {
  const seen = new Map<string, string>()
  return (file) => {
    let rel = seen.get(file)
    if (rel === undefined) {
      rel = relative(cwd, file).split('\\').join('/')
      seen.set(file, rel)
    }
    return rel
  }
}

/**
 * The `--json` document, `{ "messages": [{ "text", "variant", "placeholders", "locations": [{ "file",
 * "line", "column" }] }] }` with files relative to `cwd`, written with one message per line: still one
 * JSON value, as easy to read and to diff line by line as an indented one, and several times faster to
 * write for tens of thousands of messages (indenting was a tenth of a large run). Each line is built
 * directly, with no intermediate objects.
 */
export function extractJson(messages: readonly Message[], cwd: string): string {
  if (messages.length === 0) return '{ "messages": [] }\n'
  const rel = pathsRelativeTo(cwd)
  const quoted = new Map<string, string>()
  const file = (path: string): string => {
    let q = quoted.get(path)
    if (q === undefined) {
      q = JSON.stringify(rel(path))
      quoted.set(path, q)
    }
    return q
  }
  const lines = messages.map((m) => {
    const locations = m.locations.map((l) => `{"file":${file(l.file)},"line":${l.line},"column":${l.column}}`)
    return `{"text":${JSON.stringify(m.text)},"variant":${JSON.stringify(m.variant)},"placeholders":${JSON.stringify(m.placeholders)},"locations":[${locations.join(',')}]}`
  })
  return `{ "messages": [\n${lines.join(',\n')}\n] }\n`
}

function formatText(messages: readonly Message[], cwd: string): string {
  const rel = pathsRelativeTo(cwd)
  const lines: string[] = []
  for (const m of messages) {
    const variant = m.variant === null ? '' : ` [variant: ${m.variant}]`
    lines.push(`${JSON.stringify(m.text)}${variant}`)
    for (const l of m.locations) lines.push(`  ${rel(l.file)}:${l.line}:${l.column}`)
  }
  return lines.join('\n')
}

function printDiagnostics(diagnostics: readonly Diagnostic[]): boolean {
  let failed = false
  for (const d of diagnostics) {
    process.stderr.write(`${d.severity}: ${d.message} [${d.code}]\n`)
    if (d.severity === 'error') failed = true
  }
  return failed
}

export async function runExtract(flags: ExtractFlags, cwd: string = process.cwd()): Promise<number> {
  const options = await extractOptionsFromFlags(flags, cwd)
  const result = await extractMessages(options)
  const failed = printDiagnostics(result.diagnostics)
  if (flags.json) process.stdout.write(extractJson(result.messages, cwd))
  else {
    if (result.messages.length > 0) process.stdout.write(`${formatText(result.messages, cwd)}\n`)
    const { files, parsed, cached } = result.stats
    process.stderr.write(
      `${result.messages.length} messages in ${files} files (${parsed} parsed, ${cached} from cache)\n`,
    )
  }
  return failed ? 1 : 0
}

export function registerExtractCommand(cli: CAC): void {
  const command = cli
    .command('extract', 'Print the messages the extractor finds in the source files')
    .option('--json', 'Print { messages: [{ text, variant, placeholders, locations }] }')
    .option('--include <glob>', 'Files to read (repeatable; replaces the configured include)', {
      type: [String],
    })
    .option('--exclude <glob>', 'Files to leave out (repeatable; replaces the configured exclude)', {
      type: [String],
    })
    .option('--keywords <list>', 'Keyword specs, comma-separated: t,_x:1,2c,_n:1,2')
    .option('--root <dir>', 'Project root (where tms.config.* and the globs are read)')
    .option('--no-cache', 'Neither read nor write the extraction cache')
    .option('--workers <n>', 'Threads for parsing: a number, or auto (default)')
  // cac gives a --no-* flag the default true and prints "(default: true)" after it, which reads as if
  // the flag were on by default. Without the default an absent flag is undefined: the cache is used.
  for (const option of command.options) if (option.negated) option.config.default = undefined
  command.action(async (flags: ExtractFlags) => {
    try {
      process.exitCode = await runExtract(flags)
    } catch (error) {
      process.stderr.write(`${(error as Error).message}\n`)
      process.exitCode = 1
    }
  })
}
