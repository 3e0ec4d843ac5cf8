import type { CAC } from 'cac'
import { loadOptions } from '../config'
import type { Options } from '../options'
import { resolveOptions } from '../options'

/** `tms issues`: the service's open issues per message of the app, with their comments. */

interface IssuesFlags {
  json?: boolean
  root?: string
}

async function run(flags: IssuesFlags): Promise<void> {
  const inline: Options = {}
  if (flags.root) inline.root = flags.root
  const options = resolveOptions(await loadOptions(inline), { command: 'cli' })
  // Loaded only for this command: the others never pay for the client.
  const { formatIssues, openIssuesByMessage } = await import('../core/review/by-message')
  const { connectReview } = await import('../service')
  const result = await openIssuesByMessage(options, connectReview())
  process.stdout.write(flags.json ? `${JSON.stringify(result, null, 2)}\n` : `${formatIssues(result)}\n`)
}

export function registerIssuesCommand(cli: CAC): void {
  cli
    .command('issues', 'Open issues of the service per message (file:line), with their comments')
    .option('--json', 'Print the result as JSON')
    .option('--root <dir>', 'Project root (where tms.config.* and the globs are read)')
    .action(async (flags: IssuesFlags) => {
      try {
        await run(flags)
      } catch (error) {
        process.stderr.write(`${(error as Error).message}\n`)
        process.exitCode = 1
      }
    })
}
