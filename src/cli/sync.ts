import type { CAC } from 'cac'
import { loadOptions } from '../config'
import { unknownStyleDiagnostics } from '../core/check/styles'
import { mayUseNetwork } from '../core/model/options'
import { formatReport, requestsMade, thresholdFailure } from '../core/report'
import type { SyncLogger } from '../core/sync'
import { counted } from '../core/wording'
import { type CacheMode, type Options, type ResolvedOptions, resolveOptions } from '../options'

/** `tms push`, `tms pull`, `tms status`: the sync engine from the command line. */

interface SyncFlags {
  json?: boolean
  root?: string
  cache?: CacheMode
  locales?: string
  live?: boolean
  allowStale?: boolean
}

/**
 * Exit codes: 0 done, 1 failed (a configuration error, a refusal of the service, a threshold), 2 the
 * service could not be reached and the cache stood in (a CI step must see it; `--allow-stale` accepts
 * it and exits 0).
 */
const EXIT_STALE = 2

function stderrLogger(json: boolean): SyncLogger {
  return {
    info: (message) => {
      if (!json) process.stderr.write(`${message}\n`)
    },
    warn: (message) => process.stderr.write(`warning: ${message}\n`),
  }
}

/** The resolved options, and whether the config says `push: false` (then `tms pull` creates nothing). */
async function optionsFrom(flags: SyncFlags): Promise<{ options: ResolvedOptions; noPush: boolean }> {
  const inline: Options = {}
  if (flags.root) inline.root = flags.root
  if (flags.cache) inline.cache = flags.cache
  if (flags.locales) inline.locales = flags.locales.split(',').map((l) => l.trim())
  const raw = await loadOptions(inline)
  return { options: resolveOptions(raw, { command: 'cli' }), noPush: raw.push === false }
}

type Command = 'push' | 'pull' | 'status'

async function run(command: Command, flags: SyncFlags): Promise<number> {
  const json = flags.json === true
  const logger = stderrLogger(json)
  const { options, noPush } = await optionsFrom(flags)
  if (command === 'status' && !flags.live && options.cache !== 'frozen') options.cache = 'offline'
  const network = mayUseNetwork(options)
  const needsService = command === 'push' || ((command === 'pull' || flags.live === true) && network)
  if (needsService && !options.credentials) {
    throw new Error(
      `[unplugin-tms] tms ${command}${flags.live ? ' --live' : ''} needs credentials: set TMS_USER_IDENTIFIER and TMS_USER_SECRET`,
    )
  }
  logger.info(command === 'push' ? 'extracting and pushing new strings...' : 'extracting messages...')
  // The sync engine loads only for the commands that run it (not `tms extract` or `tms emulator`).
  const { runPipeline } = await import('../core/pipeline')
  const { connectService } = await import('../service')
  // A pull on a fresh clone (no manifest) knows no hashcode to ask for: like a build, it creates the
  // strings its cache does not know (and says so), unless the config says push: false.
  const createsStrings = command === 'push' || (command === 'pull' && !noPush)
  const result = await runPipeline({
    options,
    logger,
    push: createsStrings,
    pull: command !== 'push',
    verify: command === 'push',
    connect: connectService(),
  })
  const { extraction, report } = result
  let failed = false
  const styles = unknownStyleDiagnostics(
    extraction.messages,
    options.formats,
    options.placeholder,
    options.root,
  )
  for (const d of [...extraction.diagnostics, ...styles]) {
    // Diagnostics already name the file, line and column.
    if (d.severity === 'error') {
      process.stderr.write(`error: ${d.message}\n`)
      failed = true
    } else logger.warn(d.message)
  }
  const threshold = command === 'status' ? undefined : thresholdFailure(report, options)
  const job = command === 'status' && flags.live ? await jobProgress(options) : undefined
  if (json) {
    process.stdout.write(
      `${JSON.stringify({ messages: extraction.messages.length, ...report, sources: result.sync.sources, ...(job ? { job } : {}) }, null, 2)}\n`,
    )
  } else if (command === 'push') {
    process.stdout.write(
      `${counted(report.pushed, 'new string')} pushed (${counted(extraction.messages.length, 'message')}), ${requestsMade(report)}\n`,
    )
  } else {
    process.stdout.write(`${formatReport(report, { pushes: false })}\n`)
    if (job) {
      const locales = Object.entries(job.locales).map(([l, p]) => `${l} ${p}%`)
      process.stdout.write(
        `job "${job.name}" ${job.status}: ${job.percentComplete}% complete (${locales.join(', ')})\n`,
      )
    }
  }
  if (command === 'pull' && report.pushed > 0) {
    logger.warn(
      `${counted(report.pushed, 'string')} the cache did not know ${report.pushed === 1 ? 'was' : 'were'} created on the service first, as a build does (tms push creates new strings on its own; push: false stops tms pull from it)`,
    )
  }
  const unasked = command === 'pull' && network ? notOnService(extraction.messages, result.sync.hashcodes) : 0
  if (unasked > 0 && result.sync.failures.length === 0) {
    process.stderr.write(
      `error: ${counted(unasked, 'message')} of ${extraction.messages.length} ${unasked === 1 ? 'has' : 'have'} no string on the service yet (no hashcode in ${options.cacheDir}), so tms pull cannot get ${unasked === 1 ? 'its translations' : 'their translations'}: run tms push first (push: false in the config keeps tms pull from creating strings)\n`,
    )
    failed = true
  }
  if (threshold) {
    logger.warn(threshold)
    failed = true
  }
  if (failed) return 1
  if (result.sync.failures.length > 0 && !flags.allowStale) {
    process.stderr.write(
      `error: tms ${command} did not finish its network work (see the warning above); pass --allow-stale to accept the cache and exit 0\n`,
    )
    return EXIT_STALE
  }
  return 0
}

/** How many messages have no hashcode: a pull could not ask the service for them. */
function notOnService(messages: readonly { key: string }[], hashcodes: ReadonlyMap<string, string>): number {
  return messages.filter((m) => !hashcodes.has(m.key)).length
}

interface JobProgress {
  name: string
  status: string
  percentComplete: number
  locales: Record<string, number>
}

/** The configured job's progress, when there is a job option and the service can be asked. */
async function jobProgress(options: ResolvedOptions): Promise<JobProgress | undefined> {
  if (!options.job || !options.projectId) return undefined
  const { clientFor } = await import('../service')
  const client = await clientFor(options)
  if (!client) return undefined
  try {
    const job = await client.jobs.findByName(options.projectId, options.job.name)
    if (!job) return undefined
    const report = await client.jobs.progress(options.projectId, job.translationJobUid)
    return {
      name: job.jobName,
      status: job.jobStatus,
      percentComplete: report.progress.percentComplete,
      locales: Object.fromEntries(
        report.contentProgressReport.map((l) => [l.targetLocaleId, l.progress.percentComplete]),
      ),
    }
  } finally {
    await client.close()
  }
}

export function registerSyncCommands(cli: CAC): void {
  const shared = (command: ReturnType<CAC['command']>) =>
    command
      .option('--json', 'Print the result as JSON')
      .option('--root <dir>', 'Project root (where tms.config.* and the globs are read)')
      .option('--cache <mode>', 'prefer-network | offline | frozen | refresh')
      .option('--locales <list>', 'Comma-separated target locales, overriding the config')
      .option(
        '--allow-stale',
        'Exit 0 when the service cannot be reached and the cache stands in (else exit 2)',
      )
  const action = (name: Command) => async (flags: SyncFlags) => {
    try {
      process.exitCode = await run(name, flags)
    } catch (error) {
      process.stderr.write(`${(error as Error).message}\n`)
      process.exitCode = 1
    }
  }
  shared(cli.command('push', 'Extract messages and create the new ones in the service')).action(
    action('push'),
  )
  shared(cli.command('pull', 'Extract messages and fetch their translations into the cache')).action(
    action('pull'),
  )
  shared(cli.command('status', 'Coverage per locale, from the cache (or --live from the service)'))
    .option('--live', 'Ask the service instead of the cache')
    .action(action('status'))
}
