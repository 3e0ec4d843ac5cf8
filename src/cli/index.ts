#!/usr/bin/env node
// Command wiring only: each command lives in its own module and calls into core.
import { cac } from 'cac'
import { VERSION } from '../version'
import { registerEmulatorCommand } from './emulator'
import { registerExtractCommand } from './extract'
import { registerIssuesCommand } from './issues'
import { registerSyncCommands } from './sync'

const cli = cac('tms')

// commands: one register call per command module
registerSyncCommands(cli)
registerEmulatorCommand(cli)
registerExtractCommand(cli)
registerIssuesCommand(cli)

cli.help()
cli.version(VERSION)
cli.parse()
