import type { MigrateRun } from './project'
import type { Library } from './types'

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
  if (totals.size > 0)
    lines.push(
      'next: tms import brings the catalogs in; build, and compare each view (docs/migrating.md, "What to check afterwards")',
    )
  return lines.join('\n')
}
