import type { EmulatorSeed } from '../emulator/types'

/** A value as a POSIX shell word: bare when it is plain, else single-quoted. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`
}

/**
 * What `tms emulator` prints after its listening line: the four variables a build reads, set to the
 * emulator's URL, the seed's first project and the first user allowed in that project's account,
 * as lines a shell takes as they are (comments start with `#`).
 *
 * `seedFile` is the `--seed` file the seed came from, undefined for the built-in demo seed. Only the
 * demo seed's secret is printed (it is public, in the docs): a seed file's secrets may be real ones, and
 * CI logs keep whatever the banner says, so the line names where the secret is instead.
 */
export function connectionLines(seed: EmulatorSeed, url: string, seedFile: string | undefined): string[] {
  const account = seed.accounts.find((a) => a.projects.length > 0)
  const project = account?.projects[0]
  const user = seed.users.find(
    (u) => !u.accountUids || (account && u.accountUids.includes(account.accountUid)),
  )
  const lines = ['# Point a build or the tms CLI at this emulator: paste these lines into its shell']
  lines.push(`export TMS_BASE_URL=${shellWord(url)}`)
  if (project) {
    lines.push(`export TMS_PROJECT_ID=${shellWord(project.projectId)}`)
    lines.push(
      `# ${project.projectId} translates ${project.sourceLocaleId} into ${project.targetLocaleIds.join(', ')}`,
    )
  }
  if (!project) lines.push('# (the seed has no project: add one to accounts[].projects)')
  if (user) {
    lines.push(`export TMS_USER_IDENTIFIER=${shellWord(user.userIdentifier)}`)
    if (seedFile === undefined) lines.push(`export TMS_USER_SECRET=${shellWord(user.userSecret)}`)
    else
      lines.push(
        `# and TMS_USER_SECRET: the userSecret of ${user.userIdentifier} in ${seedFile} (not printed)`,
      )
  } else {
    lines.push('# (the seed has no user for this project: add one to users[])')
  }
  const others = seed.accounts
    .flatMap((a) => a.projects.map((p) => p.projectId))
    .filter((id) => id !== project?.projectId)
  if (others.length > 0) lines.push(`# other projects of the seed: ${others.join(', ')}`)
  return lines
}
