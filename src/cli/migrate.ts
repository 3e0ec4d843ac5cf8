import type { CAC } from 'cac'

/** `tms migrate --from <library> [paths...]`: the codemod of src/core/migrate over the app's files. */

interface MigrateFlags {
  from?: string
  dryRun?: boolean
  catalog?: string
  sourceLocale?: string
  json?: boolean
}

export function registerMigrateCommand(cli: CAC): void {
  cli
    .command(
      'migrate [...paths]',
      "Rewrite an app's Lingui, react-intl or i18next code to t, msg and <T> (default path: src)",
    )
    .option('--from <library>', 'The library the app uses: lingui, formatjs or i18next')
    .option('--dry-run', 'Print what would change; write nothing')
    .option(
      '--catalog <path>',
      "i18next: the source locale's catalog file or folder (default: found in public/locales/<locale>/ and the like)",
    )
    .option(
      '--source-locale <locale>',
      "i18next: the locale whose catalog gives the keys' texts (default: en)",
    )
    .option('--json', 'Print the result as JSON')
    .action(async (paths: string[], flags: MigrateFlags) => {
      const { MigrateInputError } = await import('../core/migrate/types')
      try {
        const { migrateProject } = await import('../core/migrate/project')
        const { formatSummary } = await import('../core/migrate/summary')
        const given = paths.map(String)
        const run = migrateProject({
          from: flags.from,
          paths: given,
          cwd: process.cwd(),
          dryRun: flags.dryRun === true,
          catalog: flags.catalog,
          sourceLocale: flags.sourceLocale,
        })
        if (flags.json) {
          const files = run.files.map(({ code: _code, ...rest }) => rest)
          process.stdout.write(`${JSON.stringify({ ...run, files }, null, 2)}\n`)
        } else process.stdout.write(`${formatSummary(run)}\n`)
      } catch (error) {
        if (!(error instanceof MigrateInputError)) throw error
        process.stderr.write(`error: ${error.message}\n`)
        process.exitCode = 1
      }
    })
}
