#!/usr/bin/env node
// Command wiring only: each command lives in its own module and calls into core.
import { cac } from 'cac'
import { VERSION } from '../version'
import { registerEmulatorCommand } from './emulator'

const cli = cac('tms')

// commands: one register call per command module
registerEmulatorCommand(cli)

cli.help()
cli.version(VERSION)
cli.parse()
