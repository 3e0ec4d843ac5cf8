#!/usr/bin/env node
// Command wiring only: each command lives in its own module and calls into core. `extract.ts` (tms
// extract), `sync.ts` (push, pull, status and their exit codes), `issues.ts` (tms issues), `emulator.ts`
// (tms emulator, printing the variables of `emulator-env.ts`), `flags.ts` (kebab-case boolean flags
// made known to cac's parser); an unknown command or flag is one line and exit 1, with a guess from
// `src/core/closest.ts`.
import { cac } from 'cac'
import { closestName } from '../core/closest'
import { VERSION } from '../version'
import { registerEmulatorCommand } from './emulator'
import { registerExtractCommand } from './extract'
import { declareKebabBooleans, kebab } from './flags'
import { registerImportCommand } from './import'
import { registerIssuesCommand } from './issues'
import { registerMigrateCommand } from './migrate'
import { registerSyncCommands } from './sync'

const cli = cac('tms')

// commands: one register call per command module
registerSyncCommands(cli)
registerEmulatorCommand(cli)
registerExtractCommand(cli)
registerIssuesCommand(cli)
registerImportCommand(cli)
registerMigrateCommand(cli)

cli.help()
cli.version(VERSION)
declareKebabBooleans(cli)

/** A mistake on the command line: one line on stderr and exit 1, so a typo in a CI script fails it. */
function fail(message: string): void {
  process.stderr.write(`error: ${message}\n`)
  process.exitCode = 1
}

/**
 * cac alone lets an unknown command or a bare `tms` exit 0 with no output and throws its own errors
 * (an unknown flag) as a stack trace: here each is one line naming the likely fix, and exit 1.
 */
function main(): void {
  let parsed: ReturnType<typeof cli.parse>
  try {
    parsed = cli.parse(process.argv, { run: false })
  } catch (error) {
    fail((error as Error).message)
    return
  }
  if (parsed.options.help || parsed.options.version) return
  const command = cli.matchedCommand
  if (!command) {
    const name = parsed.args[0]
    if (name === undefined) {
      cli.outputHelp()
      fail('no command given: tms <command> (the commands are listed above)')
      return
    }
    const guess = closestName(
      String(name),
      cli.commands.map((c) => c.name).filter((n) => n !== ''),
    )
    fail(
      `unknown command "${name}"${guess ? `: did you mean "tms ${guess}"?` : ''} (tms --help lists the commands)`,
    )
    return
  }
  try {
    void cli.runMatchedCommand()
  } catch (error) {
    const message = (error as Error).message
    const unused = /^Unused args: (.+)$/.exec(message)?.[1]
    if (unused) {
      fail(
        `unexpected argument ${unused.replaceAll('`', '')} for tms ${command.name} (tms ${command.name} --help lists its usage)`,
      )
      return
    }
    // cac names an option in camelCase (`--allowStail`); the user typed it in kebab-case.
    const typed = /^Unknown option `(-{1,2}[^`]+)`/.exec(message)?.[1]
    const flag = typed && kebab(typed)
    if (!flag) {
      fail(`${message} (tms ${command.name} --help lists its usage)`)
      return
    }
    const names = [
      ...new Set(
        [...command.options, ...cli.globalCommand.options].flatMap((o) =>
          o.names.map((n) => `--${kebab(n)}`),
        ),
      ),
    ]
    const guess = closestName(flag, names)
    fail(
      `unknown option ${flag} for tms ${command.name}${guess ? `: did you mean ${guess}?` : ''} (tms ${command.name} --help lists its options)`,
    )
  }
}

main()
