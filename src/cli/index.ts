#!/usr/bin/env node
import { cac } from 'cac'
import { VERSION } from '../version'

const cli = cac('tms')
cli.help()
cli.version(VERSION)
cli.parse()
