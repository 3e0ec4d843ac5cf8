import type { CAC } from 'cac'
import type { AutoTranslateMode } from '../emulator/types'
import { connectionLines } from './emulator-env'

/** `tms emulator`: the local TMS on 127.0.0.1 until SIGINT/SIGTERM. */

interface EmulatorFlags {
  port?: number | string
  host?: string
  seed?: string
  data?: string
  autoTranslate?: string
  publishDelay?: number | string
  quiet?: boolean
}

export const DEFAULT_EMULATOR_PORT = 4870

function parseInteger(
  flag: string,
  value: number | string | undefined,
  fallback: number,
  max: number,
): number {
  if (value === undefined) return fallback
  const n = typeof value === 'number' ? value : Number(value)
  if (!Number.isInteger(n) || n < 0 || n > max) {
    throw new Error(
      `[unplugin-tms] ${flag} must be an integer from 0 to ${max}; got ${JSON.stringify(value)}`,
    )
  }
  return n
}

async function run(flags: EmulatorFlags): Promise<void> {
  const port = parseInteger('--port', flags.port, DEFAULT_EMULATOR_PORT, 65535)
  let autoTranslate: { mode: AutoTranslateMode; publishDelayMs: number } | undefined
  if (flags.autoTranslate !== undefined) {
    if (!['memory', 'pseudo', 'off'].includes(flags.autoTranslate)) {
      throw new Error(
        `[unplugin-tms] --auto-translate must be memory, pseudo or off; got ${flags.autoTranslate}`,
      )
    }
    autoTranslate = {
      mode: flags.autoTranslate as AutoTranslateMode,
      publishDelayMs: parseInteger('--publish-delay', flags.publishDelay, 0, 3_600_000),
    }
  }
  // Request lines that beat the listening line (a client on a fixed port) wait behind it.
  let early: string[] | null = []
  // The server stack loads only for this command, so other commands start fast.
  const { startEmulator } = await import('../emulator/index')
  const { loadSeed } = await import('../emulator/seed')
  const seed = loadSeed(flags.seed)
  const host = flags.host ?? '127.0.0.1'
  const emulator = await startEmulator({
    port,
    host,
    seed,
    dataFile: flags.data,
    autoTranslate,
    log: flags.quiet ? undefined : (line) => (early ? early.push(line) : process.stdout.write(`${line}\n`)),
  }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EADDRINUSE') throw error
    throw new Error(
      `[unplugin-tms] port ${port} on ${host} is already in use (another emulator?): ` +
        `choose another with --port, e.g. tms emulator --port ${port === 65535 ? port - 1 : port + 1}, ` +
        'or --port 0 for any free port',
    )
  })
  let signals = 0
  const stop = (signal: NodeJS.Signals): void => {
    // A second signal while closing: out at once (the data file's temp file is removed on exit).
    if (++signals > 1) process.exit(signal === 'SIGINT' ? 130 : 143)
    emulator.close().then(
      () => process.exit(0),
      (error: Error) => {
        process.stderr.write(`error: ${error.message}\n`)
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  // Scripts wait for this exact first line to learn the port; the handlers above are in place by
  // then, so a signal sent right after it still stops cleanly.
  process.stdout.write(`emulator listening on ${emulator.url}\n`)
  process.stdout.write(`${connectionLines(seed, emulator.url, flags.seed).join('\n')}\n`)
  for (const line of early) process.stdout.write(`${line}\n`)
  early = null
}

export function registerEmulatorCommand(cli: CAC): void {
  cli
    .command('emulator', 'Run the local TMS emulator (REST API of the spec + /_emulator/ control API)')
    .option('--port <port>', `Port to listen on; 0 picks a free one (default: ${DEFAULT_EMULATOR_PORT})`)
    .option('--host <host>', 'Interface to bind (default: 127.0.0.1)')
    .option(
      '--seed <file>',
      'Seed JSON file: users, accounts, projects, translation memory (default: demo seed)',
    )
    .option('--data <file>', 'Persist state in this JSON file and load it at start')
    .option('--auto-translate <mode>', 'Auto-translator for every project: memory, pseudo or off')
    .option('--publish-delay <ms>', 'Delay before auto-translations are published (with --auto-translate)')
    .option('--quiet', 'Do not print request lines')
    .action((flags: EmulatorFlags) =>
      run(flags).catch((error: Error) => {
        process.stderr.write(`error: ${error.message}\n`)
        process.exit(1)
      }),
    )
}
