import type { EmulatorSeed } from '../emulator/types'

/** A value as a POSIX shell word: bare when it is plain, else single-quoted. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`
}

/**
 * What `tms emulator` prints after its listening line: the four variables a build reads, set to the
 * emulator's URL, the seed's first project and the first user allowed in that project's account,
 * as lines a shell takes as they are (comments start with `#`).
 */
export function connectionLines(seed: EmulatorSeed, url: string): string[] {
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
    lines.push(`export TMS_USER_SECRET=${shellWord(user.userSecret)}`)
  } else {
    lines.push('# (the seed has no user for this project: add one to users[])')
  }
  const others = seed.accounts
    .flatMap((a) => a.projects.map((p) => p.projectId))
    .filter((id) => id !== project?.projectId)
  if (others.length > 0) lines.push(`# other projects of the seed: ${others.join(', ')}`)
  return lines
}
