import type { MigrateRun } from './project'
import type { FormatsFound, Library } from './types'

const LIBRARY_NAME: Record<Library, string> = { lingui: 'Lingui', formatjs: 'react-intl', i18next: 'i18next' }

/** The text `tms migrate` prints: files changed, conversions per construct, what was left, what to remove. */
export function formatSummary(run: MigrateRun): string {
  const lines: string[] = []
  const changed = run.files.filter((f) => f.changed)
  lines.push(
    `tms migrate --from ${run.from}: ${changed.length} of ${run.read} files ${run.dryRun ? 'would change (dry run: nothing written)' : 'changed'}`,
  )
  if (run.catalogFiles.length > 0) lines.push(`texts of i18next's keys from ${run.catalogFiles.join(', ')}`)
  for (const f of changed) lines.push(`  ${f.file}`)
  const totals = new Map<string, number>()
  for (const f of run.files)
    for (const [k, n] of Object.entries(f.conversions)) totals.set(k, (totals.get(k) ?? 0) + n)
  if (totals.size > 0) {
    lines.push('converted:')
    const width = Math.max(...[...totals.keys()].map((k) => k.length))
    for (const [k, n] of [...totals].sort((a, b) => a[0].localeCompare(b[0])))
      lines.push(`  ${k.padEnd(width)}  ${n}`)
  }
  const left = run.files.flatMap((f) => f.left)
  if (left.length > 0) {
    lines.push(`left as they were, each with a TODO(tms) comment (${left.length}):`)
    for (const l of left) lines.push(`  ${l.file}:${l.line}:${l.column}  ${l.reason}`)
  }
  // A language switch converted to setLocale no longer moves i18next, which the uses left still read:
  // those parts of the page would stay in the old language, so the user is told, not surprised.
  if (run.from === 'i18next' && (totals.get('i18n.changeLanguage') ?? 0) > 0 && left.length > 0)
    lines.push(
      "note: i18n.changeLanguage became setLocale, which switches unplugin-tms only; the i18next uses left above keep i18next's language: call i18next.changeLanguage(locale) beside setLocale(locale) until they are rewritten",
    )
  const setup = run.files.flatMap((f) => f.setup)
  if (setup.length > 0) {
    lines.push(`${LIBRARY_NAME[run.from]}'s setup to remove by hand once nothing uses it (${setup.length}):`)
    for (const s of setup) lines.push(`  ${s.file}:${s.line}:${s.column}  ${s.what}`)
  }
  lines.push(...formatsLines(run.files.flatMap((f) => f.formats)))
  if (totals.size > 0)
    lines.push(
      'next: tms import brings the catalogs in; build, and compare each view (docs/migrating.md, "What to check afterwards")',
    )
  return lines.join('\n')
}

const at = (f: FormatsFound): string => `${f.file}:${f.line}:${f.column} (${f.where})`

/**
 * react-intl's named formats as the `formats` option to put into the tms config: the objects read,
 * merged name by name (`formats` and `defaultFormats` both: unplugin-tms has one set for the source
 * text and the translations); a name given two different readings, and each place not read, listed.
 */
function formatsLines(found: readonly FormatsFound[]): string[] {
  if (found.length === 0) return []
  // No prototype: a kind or name such as `__proto__` is read as the others, never as a prototype.
  const merged: Record<string, Record<string, unknown>> = Object.create(null)
  const firstAt = new Map<string, FormatsFound>()
  const lines: string[] = []
  const read = found.filter((f) => f.formats)
  for (const f of read) {
    for (const [kind, names] of Object.entries(f.formats!)) {
      if (typeof names !== 'object' || names === null) {
        lines.push(`  formats.${kind} at ${at(f)} is not an object of named formats: left out`)
        continue
      }
      merged[kind] ??= Object.create(null)
      const into: Record<string, unknown> = merged[kind]!
      for (const [name, options] of Object.entries(names)) {
        const path = `${kind}.${name}`
        const before = firstAt.get(path)
        if (before && JSON.stringify(into[name]) !== JSON.stringify(options)) {
          lines.push(
            `  formats.${path} differs at ${at(before)} and ${at(f)}: the first is printed; pick one`,
          )
          continue
        }
        if (!before) firstAt.set(path, f)
        into[name] = options
      }
    }
  }
  const out: string[] = []
  if (read.length > 0) {
    out.push(
      `named formats (${read.map(at).join(', ')}): put into the tms config (unplugin-tms compiles them into the messages; this migration does not edit the config):`,
    )
    const text = JSON.stringify(merged, null, 2).split('\n')
    out.push(`  formats: ${text[0]}`, ...text.slice(1).map((l) => `  ${l}`), ...lines)
  }
  const unread = found.filter((f) => f.problem)
  if (unread.length > 0) {
    out.push(
      `named formats not read (copy them into the formats option of the tms config by hand) (${unread.length}):`,
    )
    for (const f of unread) out.push(`  ${at(f)}  ${f.problem}`)
  }
  return out
}
