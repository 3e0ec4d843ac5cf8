import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, isAbsolute, resolve } from 'node:path'
import type { PartialMessage, PluginBuild } from 'esbuild'
import { fillOutputs } from './esbuild-outputs'
import type { Problem } from './problems'
import { REPORT_FILE, reportJson, reportText } from './report'
import type { TmsSession } from './session'

/**
 * esbuild: the build start and end are esbuild's onStart/onEnd (they can return messages, unlike the
 * generic hooks), the modules of the bundle come from the metafile, and the catalog markers are filled
 * in the output files once the build is done.
 */

export function toEsbuildMessage(p: Problem): PartialMessage {
  const message: PartialMessage = {
    text: p.frame ? `${p.message}\n${p.frame}` : p.message,
    pluginName: 'unplugin-tms',
  }
  if (p.file !== undefined && p.line !== undefined) {
    message.location = { file: p.file, line: p.line, column: (p.column ?? 1) - 1 }
  }
  return message
}

export function esbuildSetup(session: TmsSession): (build: PluginBuild) => void {
  return (build) => {
    const initial = build.initialOptions
    // The metafile names the inputs of the bundle: the modules whose messages the catalogs hold.
    initial.metafile = true
    const cwd = initial.absWorkingDir ?? process.cwd()
    session.configure({ root: cwd })
    const level = initial.logLevel ?? 'warning'
    // esbuild's JS API prints nothing below warnings unless asked; the report is info.
    const info = (text: string): void => {
      if (level === 'info' || level === 'debug' || level === 'verbose') process.stderr.write(`${text}\n`)
    }
    build.onStart(async () => {
      const outcome = await session.startAndSync('build')
      for (const line of outcome.info) info(`[unplugin-tms] ${line}`)
      const warnings = outcome.problems.filter((p) => p.severity === 'warning').map(toEsbuildMessage)
      const errors = outcome.problems.filter((p) => p.severity === 'error').map(toEsbuildMessage)
      return { warnings, errors }
    })
    build.onEnd(async (result) => {
      if (result.errors.length > 0 || !result.metafile) return
      const files = Object.keys(result.metafile.inputs)
        .filter((input) => !input.includes(':'))
        .map((input) => (isAbsolute(input) ? input : resolve(cwd, input)))
      const catalogOf = (index: number) => {
        const locale = session.build.locales[index]
        return locale === undefined ? undefined : session.build.catalogLiteralFor(locale, files)
      }
      fillOutputs(result, cwd, catalogOf)
      // The catalog memos these catalogs wrote are on disk when the build ends: the next may read them.
      await session.memosWritten()
      if (!session.options.report) return
      // onStart waited for the sync: this only reads its outcome.
      const { report } = await session.synced()
      info(reportText(report))
      const outDir = initial.outdir ?? (initial.outfile ? dirname(initial.outfile) : undefined)
      if (!outDir) return
      const file = resolve(cwd, outDir, REPORT_FILE)
      const json = reportJson(report)
      if (initial.write === false) {
        const contents = new TextEncoder().encode(json)
        result.outputFiles?.push({ path: file, contents, hash: '', text: json })
      } else {
        await mkdir(dirname(file), { recursive: true })
        await writeFile(file, json)
      }
    })
  }
}
