#!/usr/bin/env node
// Command wiring only: each command lives in its own module and calls into core.
import { cac } from 'cac'
import { VERSION } from '../version'

const cli = cac('tms')

// commands: one register call per command module

cli.help()
cli.version(VERSION)
cli.parse()
