// Shared by `npm run demo` and `npm run example:*`: an emulator on loopback, its auto-translator on,
// the TMS_* variables pointed at it, and everything stopped afterwards.
import { readFile, rm } from 'node:fs/promises'
import { startEmulator } from 'unplugin-tms/emulator'

export const PROJECT = 'demo-project'

export async function withDemoEmulator(work) {
  const emulator = await startEmulator({ port: 0 })
  console.log(`emulator listening on ${emulator.url}`)
  const control = async (method, path, body) => {
    const res = await fetch(`${emulator.url}${path}`, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    })
    if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status}`)
    return (await res.json()).response.data
  }
  const saved = { ...process.env }
  try {
    // The translators: whatever is authorized is translated from the memory and published at once.
    await control('POST', `/_emulator/projects/${PROJECT}/auto-translate`, {
      mode: 'memory',
      publishDelayMs: 0,
    })
    Object.assign(process.env, {
      TMS_BASE_URL: emulator.url,
      TMS_PROJECT_ID: PROJECT,
      TMS_USER_IDENTIFIER: 'demo-user',
      TMS_USER_SECRET: 'demo-secret',
    })
    return await work({ emulator, control })
  } finally {
    process.env = saved
    await emulator.close()
  }
}

/** A fresh cache, so a run shows the whole flow rather than a warm rebuild. */
export async function clearCache(exampleRoot) {
  await rm(`${exampleRoot}.tms-cache`, { recursive: true, force: true })
}

/** Prints the build's tms-report.json and the emulator's request log. */
export async function printReport(outDir, control) {
  const report = JSON.parse(await readFile(`${outDir}/tms-report.json`, 'utf8'))
  console.log('\ncoverage')
  for (const [locale, c] of Object.entries(report.locales)) {
    console.log(
      `  ${locale.padEnd(6)} ${String(c.translated).padStart(3)}/${c.messages} translated  ${c.coverage}%`,
    )
  }
  console.log(`  ${report.pushed} new strings pushed, ${report.requests} requests to the service:`)
  const log = await control('GET', '/_emulator/requests')
  for (const [route, count] of Object.entries(log.byRoute).sort())
    console.log(`    ${String(count).padStart(3)}  ${route}`)
  return report
}
