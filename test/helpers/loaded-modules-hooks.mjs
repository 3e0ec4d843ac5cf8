// Module hooks (run in Node's hooks thread) that append the URL of every module Node loads, one a line,
// to the file named at registration: ES modules and the CommonJS packages they import.
import { appendFileSync } from 'node:fs'

let log

export function initialize(data) {
  log = data.log
}

export async function load(url, context, nextLoad) {
  appendFileSync(log, `${url}\n`)
  return nextLoad(url, context)
}
